import HeadlinesCore
import TestSupport
import XCTest

/// What `headlines doctor` says of the GNOME Shell extension, from made-up facts: only on GNOME,
/// where it is found, and the exact command that enables it.
final class GnomeShellDoctorTests: XCTestCase {
    private let folder = "/usr/share/gnome-shell/extensions/headlines@headlines.org"

    private func report(_ extensionFound: GnomeShellExtension?) -> DoctorReport {
        var facts = DesktopFacts(server: DesktopFacts.Server(name: "gnome-shell", vendor: "GNOME", version: "43.9",
                                                             capabilities: ["actions", "body", "body-markup"]),
                                 dunstLeftClick: nil, browser: DesktopFacts.Browser(name: "Firefox ESR", id: "firefox-esr.desktop"),
                                 launcher: .found(program: "fuzzel", configured: false), bars: [],
                                 config: DesktopFacts.ConfigFile(path: "/home/u/.config/headlines/headlines.conf", exists: true,
                                                                 summary: "Hacker News", problems: []))
        facts.gnomeShell = extensionFound
        return DoctorReport(facts)
    }

    private func line(_ report: DoctorReport) -> String? {
        report.text.split(separator: "\n").first { $0.hasPrefix("  GNOME Shell") }.map(String.init)
    }

    func testOnlyGNOMEIsAsked() {
        XCTAssertTrue(GnomeShellExtension.isGNOME(["XDG_CURRENT_DESKTOP": "GNOME"]))
        XCTAssertTrue(GnomeShellExtension.isGNOME(["XDG_CURRENT_DESKTOP": "ubuntu:GNOME"]))
        XCTAssertFalse(GnomeShellExtension.isGNOME(["XDG_CURRENT_DESKTOP": "sway"]))
        XCTAssertFalse(GnomeShellExtension.isGNOME(["XDG_CURRENT_DESKTOP": "KDE"]))
        XCTAssertFalse(GnomeShellExtension.isGNOME([:]))
        XCTAssertNil(line(report(nil)), "no GNOME Shell line off GNOME")
    }

    func testAnEnabledExtensionIsSaidWithNothingToChange() {
        let report = report(GnomeShellExtension(folder: folder, state: .enabled))
        XCTAssertEqual(line(report), "  GNOME Shell    the extension headlines@headlines.org is installed (\(folder)) and enabled")
        XCTAssertEqual(report.changes, [])
        XCTAssertEqual(report.exitStatus, 0)
    }

    func testADisabledExtensionGetsTheCommandThatEnablesIt() {
        let report = report(GnomeShellExtension(folder: folder, state: .disabled))
        XCTAssertEqual(line(report), "  GNOME Shell    the extension headlines@headlines.org is installed (\(folder)), not enabled")
        XCTAssertEqual(report.changes.map(\.line), ["gnome-extensions enable headlines@headlines.org"])
        XCTAssertTrue(report.text.hasSuffix("""
          1. The GNOME Shell extension is installed but not enabled, so the top bar shows no headline: enable it:
               gnome-extensions enable headlines@headlines.org
        """), report.text)
        XCTAssertEqual(report.exitStatus, 1)
    }

    func testAMissingOrNotYetLoadedExtensionSaysWhatToDoBeforeEnablingIt() {
        let missing = report(GnomeShellExtension(folder: nil, state: .notLoaded))
        XCTAssertEqual(line(missing), "  GNOME Shell    the extension headlines@headlines.org is not installed")
        XCTAssertEqual(missing.changes.map(\.line), ["gnome-extensions enable headlines@headlines.org"])
        XCTAssertTrue(missing.changes[0].sentence.contains("install it (`make install`, or the .deb), log out and in again"),
                      missing.changes[0].sentence)
        let notLoaded = report(GnomeShellExtension(folder: folder, state: .notLoaded))
        XCTAssertTrue(notLoaded.changes[0].sentence.contains("log out and in again"), notLoaded.changes[0].sentence)
        XCTAssertEqual(notLoaded.changes.map(\.line), ["gnome-extensions enable headlines@headlines.org"])
    }

    func testAFailureIsAChangeWithTheShellsReasonMadeSafe() {
        let report = report(GnomeShellExtension(folder: folder, state: .failed("SyntaxError\u{1b}[31m: bad")))
        XCTAssertEqual(report.changes.count, 1)
        XCTAssertNil(report.changes[0].line)
        XCTAssertFalse(report.text.contains("\u{1b}"), report.text)
        XCTAssertTrue(report.changes[0].sentence.hasPrefix("GNOME Shell could not run the extension: SyntaxError"), report.changes[0].sentence)
    }

    func testNoShellOnTheBusIsNoChangeButStillGivesTheCommand() {
        let report = report(GnomeShellExtension(folder: folder, state: .unknown))
        XCTAssertEqual(report.changes, [])
        XCTAssertTrue(line(report)?.hasSuffix("(to enable it: gnome-extensions enable headlines@headlines.org)") == true, report.text)
    }

    func testTheShellsStatesAreReadAsGNOMENumbersThem() {
        XCTAssertEqual(GnomeShellExtension.state(reported: 1, error: ""), .enabled)
        XCTAssertEqual(GnomeShellExtension.state(reported: 2, error: ""), .disabled)
        XCTAssertEqual(GnomeShellExtension.state(reported: 6, error: ""), .disabled, "INITIALIZED: loaded, never enabled")
        XCTAssertEqual(GnomeShellExtension.state(reported: 3, error: "boom"), .failed("boom"))
        XCTAssertEqual(GnomeShellExtension.state(reported: 4, error: ""), .failed("not made for this version of GNOME Shell"))
        XCTAssertEqual(GnomeShellExtension.state(reported: nil, error: ""), .notLoaded, "an extension the shell does not know")
    }

    func testItIsFoundInTheUsersDataFolderFirstThenTheSystemOnes() {
        let metadata = "/metadata.json"
        let user = "/home/u/.local/share/gnome-shell/extensions/headlines@headlines.org"
        let environment = ["HOME": "/home/u"]
        XCTAssertEqual(GnomeShellExtension.installedFolder(environment: environment, files: FakeDoctorFiles([folder + metadata: "{}"])), folder)
        XCTAssertEqual(GnomeShellExtension.installedFolder(environment: environment,
                                                           files: FakeDoctorFiles([folder + metadata: "{}", user + metadata: "{}"])), user)
        XCTAssertNil(GnomeShellExtension.installedFolder(environment: environment, files: FakeDoctorFiles([:])))
        let custom = ["HOME": "/home/u", "XDG_DATA_HOME": "/d", "XDG_DATA_DIRS": "/opt/x/share"]
        XCTAssertEqual(GnomeShellExtension.folders(custom), ["/d/gnome-shell/extensions/headlines@headlines.org",
                                                             "/opt/x/share/gnome-shell/extensions/headlines@headlines.org"])
    }
}
