import Foundation
import TestSupport
import XCTest

/// Several widgets under one real host: three widgets (two feeds with different URLs, one
/// APITube), each bar copy with `--widget` (and an i3blocks block by `instance=`) shows its own
/// headlines, and two widgets on the same feed make one request per reload.
final class WidgetsEndToEndTests: HostTestCase {
    private func rss(_ title: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>\(title) News</title>
            <item><title>\(title) headline one</title><link>https://\(title.lowercased()).example/1</link><guid>\(title)-1</guid></item>
            <item><title>\(title) headline two</title><link>https://\(title.lowercased()).example/2</link><guid>\(title)-2</guid></item>
            </channel></rss>
            """.utf8)
    }

    private func barFile(_ widget: String, _ variant: String) -> String {
        cli.root.appendingPathComponent("runtime/headlines-widget-\(widget)/bar/\(variant)").path
    }

    private func waitForFile(_ path: String, containing text: String, within seconds: TimeInterval) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if last.contains(text) { return last }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return last
    }

    /// A world feed and a tech feed on the test's server; its base URL.
    private func serveWorldAndTech() -> String {
        server.route("/world.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: rss("World")))
        server.route("/tech.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: rss("Tech")))
        return server.baseURL.absoluteString
    }

    func testThreeWidgetsUnderOneHostEachShowTheirOwnAndOneFeedIsFetchedOnce() throws {
        // Given a world feed, a tech feed and APITube, and four widgets: "again" is on world's feed
        let base = serveWorldAndTech()
        try cli.writeConfig("""
            [source]
            provider=feeds
            feeds=\(base)/world.rss
            timeout=10s

            [refresh]
            interval=1h
            daily-budget=10

            [widget world]

            [widget again]
            max-length=20

            [widget tech]
            feeds=\(base)/tech.rss

            [widget api]
            provider=apitube
            base-url=\(base)

            """, at: configFile)

        // When one host runs
        let host = try startHost()
        try expectLine("serving 4 widgets: again, api, tech, world", from: host, within: 10)

        // Then each widget's bar lines show its own source
        XCTAssertTrue(waitForFile(barFile("world", "i3blocks-keyed"), containing: "World headline", within: 15).contains("World headline"))
        XCTAssertTrue(waitForFile(barFile("tech", "i3blocks-keyed"), containing: "Tech headline", within: 15).contains("Tech headline"))
        let api = waitForFile(barFile("api", "waybar"), containing: "\"class\":[\"fresh\"", within: 15)
        XCTAssertTrue(api.contains("\"text\":\"Central"), "the APITube widget shows the fixture's first headline: \(api)")
        XCTAssertFalse(api.contains("World headline") || api.contains("Tech headline"), api)
        XCTAssertTrue(waitForFile(barFile("again", "i3blocks-keyed"), containing: "World headline", within: 15).contains("World headline"),
                      "the widget on world's feed shows world's headlines")

        // And world's feed, shared by two widgets, was fetched once
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(server.requests.filter { $0.path == "/world.rss" }.count, 1, "\(server.requests)")
        XCTAssertEqual(server.requests.filter { $0.path == "/tech.rss" }.count, 1)

        // And the bar binary with --widget, or an i3blocks block by its instance, prints that widget's line
        for (arguments, extra, expected) in [(["i3blocks", "--widget", "tech"], [String: String](), "Tech headline"),
                                             (["i3blocks"], ["BLOCK_INSTANCE": "world"], "World headline")] {
            let text = try runBar(arguments, extra: extra)
            XCTAssertTrue(text.hasPrefix(expected), "headlines-bar \(arguments) \(extra) printed: \(text)")
        }

        // And `headlines list --widget tech` reads tech's cache
        let list = try run(["list", "--widget", "tech"])
        XCTAssertTrue(list.stdout.contains("Tech headline one"), list.stdout)
        XCTAssertFalse(list.stdout.contains("World headline"), list.stdout)

        // And `refresh --widget tech` reloads tech alone: the host's other widgets send nothing
        let refreshed = try run(["refresh", "--widget", "tech"])
        XCTAssertTrue(refreshed.stdout.hasPrefix("Reloaded by the host"), refreshed.stdout + refreshed.stderr)
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(server.requests.filter { $0.path == "/tech.rss" }.count, 2, "\(server.requests)")
        XCTAssertEqual(server.requests.filter { $0.path == "/world.rss" }.count, 1, "\(server.requests)")
        XCTAssertEqual(server.requests.filter { $0.path == Self.path }.count, 1, "\(server.requests)")

        // And status names the widget, the others, and whose fetch a widget on a shared source shows
        let status = try run(["status", "--widget", "world"])
        XCTAssertTrue(status.stdout.contains("Widget:        world (also: again, api, tech; pick one with --widget)"), status.stdout)
        XCTAssertTrue(status.stdout.contains("the same as widget again, whose fetch it shows"), status.stdout)
    }

    /// Three widgets: a bar without --widget shows the default one (the first by name, as for every
    /// command), `headlines open` opens what that bar shows, and a mute in one widget's name takes
    /// its source off that bar at once.
    func testABarWithoutAWidgetShowsTheDefaultOneAndAMuteAppliesAtOnce() throws {
        let base = serveWorldAndTech()
        try cli.writeConfig("""
            [source]
            provider=feeds
            timeout=10s

            [widget alpha]
            feeds=\(base)/world.rss

            [widget beta]
            feeds=\(base)/tech.rss

            [widget gamma]
            provider=apitube
            base-url=\(base)

            """, at: configFile)
        // A bar copy from an earlier single-widget host: its old line must not stay on show.
        let old = cli.root.appendingPathComponent("runtime/headlines/bar")
        try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data("{\"text\":\"an old single-widget line\"}\n".utf8).write(to: old.appendingPathComponent("waybar"))
        let opened = cli.root.appendingPathComponent("opened.txt")
        _ = try installFakeBrowser(opened: opened)
        let host = try startHost()
        try expectLine("serving 3 widgets: alpha, beta, gamma", from: host, within: 10)

        // A waybar copy and the plain one-shot, without --widget, show alpha's headline within 5 s
        let waybar = try BackgroundProcess(executable: barBinary, arguments: ["waybar", "--config", configFile.path], environment: cli.environment(environment))
        defer { _ = waybar.kill() }
        XCTAssertNotNil(waybar.waitForLine(containing: "World headline one", stream: .stdout, timeout: 5), waybar.transcript + host.transcript)
        var plain = ""
        _ = waitUntil(timeout: 5) { plain = (try? self.runBar(["plain"], extra: self.environment)) ?? ""; return plain.contains("World headline one") }
        XCTAssertTrue(plain.contains("World headline one"), plain)

        // `headlines open` opens the headline that bar shows
        XCTAssertEqual(try run(["open"]).status, 0)
        XCTAssertEqual(browserOpened(opened), "https://world.example/1\n")

        // `--widget alpha mute SOURCE` takes the source off that bar within 2 s
        let listed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try run(["list", "--json", "--widget", "alpha"]).stdout.utf8)) as? [[String: Any]])
        let source = try XCTUnwrap(listed.first?["source"] as? String)
        let mark = waybar.mark
        let mute = try run(["--widget", "alpha", "mute", source])
        XCTAssertEqual(mute.status, 0, mute.stderr)
        XCTAssertNotNil(waybar.waitForLine(after: mark, stream: .stdout, timeout: 2) { !$0.contains("World headline") },
                        "the muted source stayed on the bar: \(waybar.transcript)")
    }
}
