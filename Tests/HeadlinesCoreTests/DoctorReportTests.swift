import HeadlinesCore
import TestSupport
import XCTest

/// `headlines doctor`'s decisions, from made-up facts: what it says, what it asks to change,
/// and its exit status.
final class DoctorReportTests: XCTestCase {
    private let dunst = DesktopFacts.Server(name: "dunst", vendor: "knopwob", version: "1.9.0 (2022-06-27)",
                                            capabilities: ["actions", "body", "body-hyperlinks", "body-markup"])
    private let userFile = "/home/u/.config/dunst/dunstrc"

    private func facts(server: DesktopFacts.Server? = nil, click: DunstSettings.LeftClick? = nil,
                       browser: DesktopFacts.Browser? = DesktopFacts.Browser(name: "Firefox ESR", id: "firefox-esr.desktop"),
                       launcher: DesktopFacts.Launcher = .found(program: "fuzzel", configured: false),
                       config: DesktopFacts.ConfigFile? = nil) -> DesktopFacts {
        DesktopFacts(server: server, dunstLeftClick: click, browser: browser, launcher: launcher,
                     bars: [DesktopFacts.Bar(name: "waybar", installed: true, configFile: "/home/u/.config/waybar/config", runsHeadlines: true),
                            DesktopFacts.Bar(name: "i3blocks", installed: false, configFile: nil, runsHeadlines: false)],
                     config: config ?? DesktopFacts.ConfigFile(path: "/home/u/.config/headlines/headlines.conf", exists: true,
                                                               summary: "APITube, key from APITUBE_API_KEY", problems: []))
    }

    private func leftClick(_ actions: [String], setIn: String?, main: String?, commandLine: Bool = false) -> DunstSettings.LeftClick {
        DunstSettings.LeftClick(actions: actions, setIn: setIn, mainFile: main, userFile: userFile, fromCommandLine: commandLine)
    }

    func testAWorkingDesktopHasNothingToChange() {
        let report = DoctorReport(facts(server: dunst, click: leftClick(["do_action", "close_current"], setIn: userFile, main: userFile)))
        XCTAssertEqual(report.changes, [])
        XCTAssertEqual(report.exitStatus, 0)
        XCTAssertEqual(report.text, """
        headlines doctor
          notifications  dunst 1.9.0 (2022-06-27) (knopwob) supports actions, body, body-hyperlinks, body-markup
                         a left click opens the article (mouse_left_click = do_action, close_current, in /home/u/.config/dunst/dunstrc)
          browser        Firefox ESR (firefox-esr.desktop) opens https links
          launcher       fuzzel, found on PATH (for `headlines menu` and a digest's click)
          bars           waybar: installed, /home/u/.config/waybar/config runs headlines
                         i3blocks: not installed, no config file
          config         /home/u/.config/headlines/headlines.conf loads: APITube, key from APITUBE_API_KEY

        Nothing to change.
        """)
    }

    func testDoNotDisturbAndWhatTheHostHoldsAreSaidWithNothingToChange() {
        var quiet = facts(server: dunst, click: leftClick(["do_action"], setIn: userFile, main: userFile))
        quiet.doNotDisturb = true
        quiet.held = HeldCounts(doNotDisturb: 5)
        let report = DoctorReport(quiet)
        XCTAssertEqual(report.exitStatus, 0, "Do Not Disturb is the user's choice, not a fault")
        let lines = report.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(lines.contains("Do Not Disturb is on: nothing is posted until it ends, then one summary of what arrived"), report.text)
        XCTAssertTrue(lines.contains("held back: 5 new headlines while Do Not Disturb is on, summarised when it ends"), report.text)
        quiet.doNotDisturb = false
        quiet.held = HeldCounts()
        XCTAssertFalse(DoctorReport(quiet).text.contains("Do Not Disturb"), "said only while it is on")
        XCTAssertFalse(DoctorReport(quiet).text.contains("held back"), "said only while something is held")
    }

    func testDunstsDefaultLeftClickGetsTheLineToAdd() {
        let report = DoctorReport(facts(server: dunst, click: leftClick(["close_current"], setIn: "/etc/xdg/dunst/dunstrc", main: "/etc/xdg/dunst/dunstrc")))
        XCTAssertEqual(report.exitStatus, 1)
        XCTAssertEqual(report.changes.map(\.line), ["mouse_left_click = do_action, close_current"])
        XCTAssertTrue(report.changes[0].sentence.contains("Copy /etc/xdg/dunst/dunstrc to \(userFile) (dunst then reads that file instead) and set this in its [global] section, then restart dunst:"),
                      report.changes[0].sentence)
        let lines = report.text.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(lines.contains("       mouse_left_click = do_action, close_current"), "the line on a line of its own:\n\(report.text)")
        XCTAssertTrue(lines.contains("                 a left click closes the notification without opening the article (mouse_left_click = close_current, in /etc/xdg/dunst/dunstrc)"),
                      report.text)
        XCTAssertTrue(lines.contains("1 thing to change:"), report.text)
    }

    func testTheDunstLineGoesWhereDunstReadsItLast() {
        func place(_ click: DunstSettings.LeftClick) -> String { DoctorReport.whereToSet(click) }
        XCTAssertEqual(place(leftClick(["close_current"], setIn: userFile + ".d/mouse.conf", main: userFile)),
                       "In \(userFile).d/mouse.conf, change the mouse_left_click line to this")
        XCTAssertEqual(place(leftClick(["close_current"], setIn: nil, main: userFile)), "Add this to the [global] section of \(userFile)")
        XCTAssertEqual(place(leftClick(["close_current"], setIn: nil, main: nil)), "Create \(userFile) with a [global] section holding this line")
        XCTAssertEqual(place(leftClick(["close_current"], setIn: "/srv/dunstrc", main: "/srv/dunstrc", commandLine: true)),
                       "In /srv/dunstrc, change the mouse_left_click line to this", "dunst -config FILE: that file")
        XCTAssertEqual(place(leftClick(["close_current"], setIn: nil, main: "/etc/xdg/dunst/dunstrc")),
                       "Copy /etc/xdg/dunst/dunstrc to \(userFile) (dunst then reads that file instead) and set this in its [global] section")
    }

    func testAServerWithoutActionsIsSaidNotCounted() {
        let osd = DesktopFacts.Server(name: "notify-osd", vendor: "Canonical Ltd", version: "1.0", capabilities: ["body", "body-markup", "icon-static"])
        let report = DoctorReport(facts(server: osd))
        XCTAssertEqual(report.exitStatus, 0, "nothing the user can change in headlines or the server")
        XCTAssertTrue(report.text.contains("no actions: a click cannot open the article, so each notification carries its link as text"), report.text)
        let xfceDND = DesktopFacts.Server(name: "Xfce Notify Daemon", vendor: "Xfce", version: "0.7.3",
                                          capabilities: ["body", "body-markup", "body-hyperlinks"])
        XCTAssertTrue(DoctorReport(facts(server: xfceDND)).text.contains("carries its link as a link"))
    }

    func testXfceSaysWhereToClick() {
        let xfce = DesktopFacts.Server(name: "Xfce Notify Daemon", vendor: "Xfce", version: "0.7.3", capabilities: ["actions", "body"])
        XCTAssertTrue(DoctorReport(facts(server: xfce)).text.contains("click the Open button"))
    }

    func testEachMissingPieceIsAChange() {
        let broken = DoctorReport(facts(server: nil, browser: nil,
                                        launcher: .broken("No launcher for the headlines menu is installed: install rofi or dmenu, or set [bar] launcher to a dmenu-style program."),
                                        config: DesktopFacts.ConfigFile(path: "/c.conf", exists: true, summary: nil,
                                                                        problems: ["/c.conf: [refresh] interval = 'soon' is not a duration; use 30m."])))
        XCTAssertEqual(broken.exitStatus, 1)
        XCTAssertEqual(broken.changes.count, 4, broken.text)
        XCTAssertTrue(broken.text.contains("  notifications  none answers on the session bus"), broken.text)
        XCTAssertTrue(broken.text.contains("xdg-settings set default-web-browser"), broken.text)
        XCTAssertTrue(broken.text.contains("  launcher       none can run"), broken.text)
        XCTAssertTrue(broken.text.contains("  config         /c.conf does not load (below)"), broken.text)
        XCTAssertTrue(broken.text.contains("  4. /c.conf: [refresh] interval = 'soon' is not a duration; use 30m."), broken.text)
    }

    func testAConfigThatLoadsWithAProblemIsAChange() {
        let config = DesktopFacts.ConfigFile(path: "/home/u/.config/headlines/headlines.conf", exists: false, summary: "APITube",
                                             problems: ["APITube needs an API key: set APITUBE_API_KEY or [source] api-key-file, or use a keyless feed provider."])
        let report = DoctorReport(facts(server: dunst, click: leftClick(["do_action"], setIn: userFile, main: userFile), config: config))
        XCTAssertEqual(report.exitStatus, 1)
        XCTAssertTrue(report.text.contains("headlines.conf (no file: the defaults): APITube"), report.text)
    }

    func testBarsAreFoundWhereTheyLook() {
        let env = ["HOME": "/home/u", "XDG_CONFIG_HOME": "/home/u/.config"]
        XCTAssertEqual(BarConfigSearch.candidates(for: "waybar", environment: env).prefix(3),
                       ["/home/u/.config/waybar/config", "/home/u/.config/waybar/config.jsonc", "/home/u/.config/waybar/config"])
        XCTAssertEqual(BarConfigSearch.candidates(for: "i3blocks", environment: ["HOME": "/home/u"]),
                       ["/home/u/.config/i3blocks/config", "/home/u/.i3blocks.conf", "/etc/xdg/i3blocks/config", "/etc/i3blocks.conf"])
        let files = FakeDoctorFiles(["/home/u/.config/waybar/config.jsonc": "{\"custom/news\": {\"exec\": \"headlines-bar waybar\"}}",
                                     "/etc/xdg/waybar/config": "{}",
                                     "/etc/i3blocks.conf": "[time]\ncommand=date\n"])
        XCTAssertEqual(BarConfigSearch.bar("waybar", installed: true, environment: env, files: files),
                       DesktopFacts.Bar(name: "waybar", installed: true, configFile: "/home/u/.config/waybar/config.jsonc", runsHeadlines: true))
        XCTAssertEqual(BarConfigSearch.bar("i3blocks", installed: true, environment: env, files: files),
                       DesktopFacts.Bar(name: "i3blocks", installed: true, configFile: "/etc/i3blocks.conf", runsHeadlines: false))
    }
}
