import HeadlinesCore
import TestSupport
import XCTest

/// dunst's left click, read from the files dunst 1.9 reads, in its order and ini dialect.
final class DunstSettingsTests: XCTestCase {
    private let env = ["HOME": "/home/u"]
    private let user = "/home/u/.config/dunst/dunstrc"
    private let system = "/etc/xdg/dunst/dunstrc"

    private func click(_ files: [String: String], argv: [String] = [], env: [String: String]? = nil) -> DunstSettings.LeftClick {
        DunstSettings.leftClick(commandLine: argv, environment: env ?? self.env, files: FakeDoctorFiles(files))
    }

    func testWithNoFileTheLeftClickOnlyCloses() {
        let c = click([:])
        XCTAssertEqual(c, DunstSettings.LeftClick(actions: ["close_current"], setIn: nil, mainFile: nil, userFile: user, fromCommandLine: false))
        XCTAssertFalse(c.opensArticle)
    }

    func testDebiansSystemFileSetsTheDefault() {
        let c = click([system: "[global]\n    mouse_left_click = close_current\n    mouse_middle_click = do_action, close_current\n"])
        XCTAssertEqual(c.actions, ["close_current"])
        XCTAssertEqual(c.setIn, system)
        XCTAssertEqual(c.mainFile, system)
        XCTAssertFalse(c.isUsers(system))
    }

    func testTheUsersFileReplacesTheSystemOneWhole() {
        // dunst reads the first dunstrc it finds: the system file's value no longer counts.
        let c = click([user: "[global]\nfont = Monospace 9\n", system: "[global]\nmouse_left_click = do_action\n"])
        XCTAssertEqual(c.actions, ["close_current"], "dunst's built-in default")
        XCTAssertNil(c.setIn)
        XCTAssertEqual(c.mainFile, user)
        XCTAssertTrue(c.isUsers(user))
    }

    func testTheLineTheDoctorPrintsOpensTheArticle() {
        let c = click([user: "[global]\n" + DunstSettings.openingLeftClick + "\n"])
        XCTAssertEqual(c.actions, ["do_action", "close_current"])
        XCTAssertTrue(c.opensArticle)
        XCTAssertEqual(c.setIn, user)
    }

    func testDropInsBesideTheMainFileOverrideItInNameOrder() {
        let files = [user: "[global]\nmouse_left_click = close_current\n",
                     user + ".d/20-late.conf": "[global]\nmouse_left_click = close_all\n",
                     user + ".d/10-early.conf": "[global]\nmouse_left_click = do_action\n",
                     user + ".d/.hidden.conf": "[global]\nmouse_left_click = none\n",
                     user + ".d/99-notes.txt": "[global]\nmouse_left_click = context\n",
                     system + ".d/50-system.conf": "[global]\nmouse_left_click = do_action\n"]
        let c = click(files)
        XCTAssertEqual(c.actions, ["close_all"])
        XCTAssertEqual(c.setIn, user + ".d/20-late.conf")
    }

    func testTheCommandLineFileIsTheOnlyOneRead() {
        let files = ["/tmp/my.rc": "[global]\nmouse_left_click = do_action\n",
                     user: "[global]\nmouse_left_click = close_current\n",
                     "/tmp/my.rc.d/1.conf": "[global]\nmouse_left_click = close_all\n"]
        let fake = FakeDoctorFiles(files)
        let c = DunstSettings.leftClick(commandLine: ["dunst", "-config", "/tmp/my.rc"], environment: env, files: fake)
        XCTAssertEqual(c.actions, ["do_action"])
        XCTAssertTrue(c.fromCommandLine)
        XCTAssertTrue(c.isUsers("/tmp/my.rc"))
        XCTAssertEqual(fake.read, ["/tmp/my.rc"])
        // dunst looks for -conf first, then -config.
        XCTAssertEqual(click(files, argv: ["dunst", "-config", user, "-conf", "/tmp/my.rc"]).setIn, "/tmp/my.rc")
    }

    func testTheXDGVariablesAreDunsts() {
        let env = ["HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg", "XDG_CONFIG_DIRS": "/opt/xdg/:/etc/xdg"]
        let fake = FakeDoctorFiles(["/opt/xdg/dunst/dunstrc": "[global]\nmouse_left_click = do_action\n"])
        let c = DunstSettings.leftClick(commandLine: [], environment: env, files: fake)
        XCTAssertEqual(c.userFile, "/cfg/dunst/dunstrc")
        XCTAssertEqual(c.setIn, "/opt/xdg/dunst/dunstrc")
        XCTAssertEqual(fake.read, ["/cfg/dunst/dunstrc", "/opt/xdg/dunst/dunstrc"])
    }

    func testTheIniDialect() {
        func value(_ text: String) -> [String] { click([user: text]).actions }
        XCTAssertEqual(value("[global]\n# mouse_left_click = do_action\n; mouse_left_click = do_action\n"), ["close_current"], "comments")
        XCTAssertEqual(value("[global]\n  mouse_left_click=do_action # open it\n"), ["do_action"], "an inline comment")
        XCTAssertEqual(value("[global]\nmouse_left_click = \"do_action, close_current\"\n"), ["do_action", "close_current"], "quotes")
        XCTAssertEqual(value("[urgency_low]\nmouse_left_click = do_action\n"), ["close_current"], "another section")
        XCTAssertEqual(value("mouse_left_click = do_action\n[global]\n"), ["close_current"], "no section")
        XCTAssertEqual(value("[global]\nmouse_left_click = do_action\nmouse_left_click = close_current\n"), ["do_action"],
                       "in one file the first counts")
        XCTAssertEqual(value("[global]\nfont = x\n[play]\nx = 1\n[global]\nmouse_left_click = do_action\n"), ["do_action"],
                       "a section named twice is one")
        XCTAssertEqual(value("[global\nmouse_left_click = do_action\n"), ["close_current"], "a broken section header changes nothing")
        XCTAssertEqual(value("[global]\r\nmouse_left_click = do_action\r\n"), ["do_action"], "CRLF")
        XCTAssertEqual(value("[global]\nmouse_left_click =\n"), [], "empty: the click does nothing")
    }

    func testAValueDunstDoesNotKnowKeepsTheOneBefore() {
        let c = click([user: "[global]\nmouse_left_click = do_action\n",
                       user + ".d/a.conf": "[global]\nmouse_left_click = open_article\n"])
        XCTAssertEqual(c.actions, ["do_action"])
        XCTAssertEqual(c.setIn, user)
    }
}
