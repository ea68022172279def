import Foundation
import TestSupport
import XCTest

/// The launcher: a configured launcher that is not installed is named when the config
/// loads and makes `menu` exit 1 with one sentence; with no launcher at all `menu` says which to
/// install and exits 1.
final class MenuWordsTests: EndToEndTestCase {
    private var rss: Data { FixturePaths.data("feeds/sample-rss2.xml") }

    private func config(_ bar: String) throws -> URL {
        server.route("/a.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: rss))
        return try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(server.baseURL.absoluteString)/a.rss\n[bar]\n\(bar)\n")
    }

    func testALauncherNotOnPathIsNamedAtLoadAndMenuExitsOne() throws {
        let conf = try config("launcher = nosuchmenu -dmenu")
        let fetch = try cli.run(["--config", conf.path, "fetch"])
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        XCTAssertTrue(fetch.stderrLines.contains("headlines: warning: \(conf.path): [bar] launcher names 'nosuchmenu', which is not installed or not on PATH: `headlines menu` cannot open it."), fetch.stderr)
        let menu = try cli.run(["--config", conf.path, "menu"])
        XCTAssertEqual(menu.status, 1, menu.stdout + menu.stderr)
        XCTAssertTrue(menu.stderrLines.contains("headlines: The launcher 'nosuchmenu' ([bar] launcher) is not installed or not on PATH: install it or change [bar] launcher."), menu.stderr)
        XCTAssertFalse(menu.stderr.contains("/usr/bin/env"), menu.stderr)
    }

    func testAnUnterminatedQuoteIsAConfigErrorForEveryCommand() throws {
        let conf = try config("launcher = rofi -dmenu -p 'News")
        let list = try cli.run(["--config", conf.path, "list"])
        XCTAssertEqual(list.status, 2)
        XCTAssertTrue(list.stderr.contains("[bar] launcher = 'rofi -dmenu -p 'News' has an unterminated ' quote"), list.stderr)
    }

    func testNoLauncherInstalledSaysWhichToInstall() throws {
        let conf = try config("")
        XCTAssertEqual(try cli.run(["--config", conf.path, "fetch"]).status, 0)
        let menu = try cli.run(["--config", conf.path, "menu"], environment: ["PATH": "/nonexistent", "WAYLAND_DISPLAY": "wayland-9"])
        XCTAssertEqual(menu.status, 1)
        XCTAssertEqual(menu.stderr, "headlines: No launcher for the headlines menu is installed: install fuzzel or wofi (Wayland), or set [bar] launcher to a dmenu-style program.\n")
    }
}
