import Foundation
import TestSupport
import XCTest

/// A click on a notification brings the browser to the front on Wayland only when the browser is
/// started with the activation token the server sent for that click (spec 1.2's ActivationToken),
/// and every notification names the desktop file and a category a user's server rules can match.
/// Against a fake server on the test's bus, with the real host and a fake browser.
final class NotificationActivationTests: HostTestCase {
    private var notifications: FakeNotificationServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        notifications = try FakeNotificationServer(address: bus.address)
    }

    override func tearDown() {
        notifications?.stop()
        notifications = nil
        super.tearDown()
    }

    /// The host started with `extra` in its environment, once it posted its first notification
    /// (a first run posts the newest headline only): that Notify call.
    private func firstNotification(extra: [String: String] = [:]) throws -> FakeNotificationServer.Call {
        try writeConfig(interval: "1h", dailyBudget: 10)
        let host = try startHost(extra: extra)
        try expectLine("reload ok", from: host, within: 10)
        guard let call = notifications.firstCall(timeout: 10) else {
            XCTFail("the host posted no notification; it printed:\n\(host.transcript)")
            throw Stop()
        }
        return call
    }

    /// The values of `variable` in the browser's environment dumps, one per run.
    private func values(of variable: String, in dump: URL) -> [String] {
        let text = (try? String(contentsOf: dump, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.hasPrefix(variable + "=") }.map { String($0.dropFirst(variable.count + 1)) }
    }

    func testTheBrowserAClickOpensGetsTheTokenTheServerSent() throws {
        // Given a host whose newest headline is on the server
        let opened = cli.root.appendingPathComponent("opened.txt"), browserEnv = cli.root.appendingPathComponent("browser.env")
        _ = try installFakeBrowser(opened: opened, environmentTo: browserEnv)
        let call = try firstNotification()
        XCTAssertTrue(call.actions.contains("default"), "actions: \(call.actions)")

        // When the server sends a token and then the click
        let token = "token-from-the-server-4711"
        notifications.invoke("default", on: call.id, token: token)

        // Then the browser opens the link with that token in both variables
        XCTAssertTrue(browserOpened(opened).hasPrefix("http"), "the browser did not run")
        XCTAssertEqual(values(of: "XDG_ACTIVATION_TOKEN", in: browserEnv), [token])
        XCTAssertEqual(values(of: "DESKTOP_STARTUP_ID", in: browserEnv), [token])
    }

    func testWithoutATokenTheBrowserGetsNoneNotEvenTheOneTheHostWasStartedWith() throws {
        // Given a host started with a token of its own (already spent on its own start)
        let opened = cli.root.appendingPathComponent("opened.txt"), browserEnv = cli.root.appendingPathComponent("browser.env")
        _ = try installFakeBrowser(opened: opened, environmentTo: browserEnv)
        let call = try firstNotification(extra: ["XDG_ACTIVATION_TOKEN": "spent-at-the-host-start", "DESKTOP_STARTUP_ID": "spent-too"])

        // When a server that sends no token clicks
        notifications.invoke("default", on: call.id, token: nil)

        // Then the browser runs with neither variable
        XCTAssertTrue(browserOpened(opened).hasPrefix("http"), "the browser did not run")
        XCTAssertEqual(values(of: "XDG_ACTIVATION_TOKEN", in: browserEnv), [])
        XCTAssertEqual(values(of: "DESKTOP_STARTUP_ID", in: browserEnv), [])
    }

    func testTheLauncherASummaryClickStartsGetsTheToken() throws {
        // Given a launcher that records its environment, one headline per reload, and a host
        // past its first run
        let launcherEnv = cli.root.appendingPathComponent("launcher.env")
        let launcher = cli.root.appendingPathComponent("launcher")
        try "#!/bin/sh\nenv >> \(launcherEnv.path)\ncat >/dev/null\nexit 1\n".write(to: launcher, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: launcher.path)
        let first = try firstNotification()
        try cli.writeConfig(String(contentsOf: configFile, encoding: .utf8) + "\n[notify]\nmax-per-refresh=1\n[bar]\nlauncher=\(launcher.path)\n",
                            at: configFile)

        // When a reload brings ten new headlines (one posted, the rest summarised) and the server
        // clicks the summary with a token
        var envelope = try XCTUnwrap(JSONSerialization.jsonObject(with: fixture) as? [String: Any])
        envelope["results"] = try XCTUnwrap(envelope["results"] as? [[String: Any]]).map { article in
            article.merging(["id": "\(article["id"] ?? "")-2", "href": "\(article["href"] ?? "")-2",
                             "title": "\(article["title"] ?? "") again"]) { $1 }
        }
        server.route(Self.path, .json(try JSONSerialization.data(withJSONObject: envelope)))
        try reloadOverBus()
        _ = waitUntil(timeout: 10) { notifications.calls.contains { $0.hints["category"] == "x-headlines.digest" } }
        let digest = try XCTUnwrap(notifications.calls.first { $0.hints["category"] == "x-headlines.digest" },
                                   "no summary among \(notifications.calls.map(\.summary))")
        XCTAssertNotEqual(digest.id, first.id)
        let token = "token-for-the-launcher-2718"
        notifications.invoke("default", on: digest.id, token: token)

        // Then the launcher `headlines menu` runs has that token in both variables
        _ = waitUntil(timeout: 10) { !values(of: "PATH", in: launcherEnv).isEmpty }
        XCTAssertEqual(values(of: "PATH", in: launcherEnv).count, 1, "the launcher ran other than once")
        XCTAssertEqual(values(of: "XDG_ACTIVATION_TOKEN", in: launcherEnv), [token])
        XCTAssertEqual(values(of: "DESKTOP_STARTUP_ID", in: launcherEnv), [token])
    }

    func testEachNotificationNamesTheDesktopFileAndItsCategory() throws {
        // Given a default browser that cannot start (its working folder does not exist)
        let opened = cli.root.appendingPathComponent("opened.txt")
        _ = try installFakeBrowser(opened: opened)
        let desktopFile = cli.root.appendingPathComponent("home/.local/share/applications/fake-browser.desktop")
        try (String(contentsOf: desktopFile, encoding: .utf8) + "\nPath=\(cli.root.path)/no-such-folder\n")
            .write(to: desktopFile, atomically: true, encoding: .utf8)

        // When the host posts its headline and a click on it fails
        let headline = try firstNotification()
        notifications.invoke("default", on: headline.id, token: nil)
        _ = waitUntil(timeout: 10) { notifications.calls.count >= 2 }

        // Then the headline is an article, the failure an error, and both name the desktop file
        let calls = notifications.calls
        XCTAssertEqual(calls.count, 2, "Notify calls: \(calls.map(\.summary))")
        XCTAssertEqual(calls.map { $0.hints["category"] }, ["x-headlines.article", "x-headlines.error"])
        XCTAssertEqual(calls.map { $0.hints["desktop-entry"] }, ["headlines", "headlines"])
        XCTAssertEqual(calls.map(\.appName), ["Headlines", "Headlines"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: opened.path), "the browser ran")
    }
}
