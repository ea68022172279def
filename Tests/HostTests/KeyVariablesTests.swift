import Foundation
import TestSupport
import XCTest

/// No API key reaches a program started for the user: with each key variable set for its
/// provider, the browser `headlines open` starts (through the host, and from the cache) and the
/// launcher `headlines menu` runs have none of them in their environment.
final class KeyVariablesTests: HostTestCase {
    private let keyed = [("apitube", "APITUBE_API_KEY"), ("newsapi", "NEWSAPI_API_KEY"), ("guardian", "GUARDIAN_API_KEY"),
                         ("nyt", "NYT_API_KEY"), ("gnews", "GNEWS_API_KEY"), ("json", "HEADLINES_JSON_API_KEY")]

    /// The names, and the values given, found in an `env` dump.
    private func leaks(in dump: URL) -> [String] {
        let text = (try? String(contentsOf: dump, encoding: .utf8)) ?? ""
        return keyed.map(\.1).filter { text.contains($0 + "=") } + keyed.map { "secret-\($0.0)" }.filter(text.contains)
    }

    func testNoKeyReachesTheBrowserOrTheLauncher() throws {
        let feed = server.baseURL.appendingPathComponent("a.rss").absoluteString
        server.route("/a.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"],
                                        body: FixturePaths.data("feeds/sample-rss2.xml")))
        let opened = cli.root.appendingPathComponent("opened.txt"), browserEnv = cli.root.appendingPathComponent("browser.env")
        _ = try installFakeBrowser(opened: opened, environmentTo: browserEnv)
        let launcherEnv = cli.root.appendingPathComponent("launcher.env")
        let launcher = cli.root.appendingPathComponent("launcher")
        try "#!/bin/sh\nenv >> \(launcherEnv.path)\ncat >/dev/null\nexit 1\n".write(to: launcher, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: launcher.path)
        try cli.writeConfig("[source]\nprovider=feeds\nfeeds=\(feed)\n[bar]\nlauncher=\(launcher.path)\n", at: configFile)
        // The host, started with every key in its environment (the menu asks it for its headlines)
        var all = environment
        for (provider, variable) in keyed { all[variable] = "secret-\(provider)" }
        let host = try BackgroundProcess(cli: cli, arguments: ["run", "--config", configFile.path], environment: all)
        defer { _ = host.kill() }
        try expectLine("reload ok", from: host, within: 10)
        // `open 1` reads the cache, which the reload child writes just after its report.
        XCTAssertFalse(try listedAfterReload().urls.isEmpty, "no cache after the host's reload:\n\(host.transcript)")

        for (provider, variable) in keyed {
            // A config for the provider whose variable is set (a json one needs its URL and where the
            // key goes); the host's cache is what `open 1` opens.
            let other = cli.root.appendingPathComponent("\(provider).conf")
            let json = provider == "json" ? "url=\(feed)\napi-key-param=key\n" : ""
            try cli.writeConfig("[source]\nprovider=\(provider)\nbase-url=\(server.baseURL.absoluteString)\n\(json)[bar]\nlauncher=\(launcher.path)\n",
                                at: other)
            let env = environment.merging([variable: "secret-\(provider)"]) { $1 }
            for command in [["open", "1"], ["menu"]] {
                let result = try cli.run(["--config", other.path] + command, environment: env)
                XCTAssertEqual(result.status, 0, "\(provider) \(command): \(result.stderr)")
            }
        }
        // And the host opens what the bar shows.
        let open = try cli.run(["open", "--config", configFile.path], environment: all)
        XCTAssertEqual(open.status, 0, open.stderr)
        XCTAssertNotNil(waitUntil(timeout: 10) {
            ((try? String(contentsOf: opened, encoding: .utf8)) ?? "").split(separator: "\n").count == keyed.count + 1
        }, "the browser ran \(((try? String(contentsOf: opened, encoding: .utf8)) ?? "").split(separator: "\n").count) times")

        XCTAssertTrue(FileManager.default.fileExists(atPath: launcherEnv.path), "the launcher never ran")
        XCTAssertEqual(leaks(in: browserEnv), [], "the browser's environment")
        XCTAssertEqual(leaks(in: launcherEnv), [], "the launcher's environment")
    }
}
