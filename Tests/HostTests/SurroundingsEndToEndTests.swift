import Foundation
import TestSupport
import XCTest

/// Against the real binary: the host follows SIGHUP's new source, a cache
/// written by `headlines fetch`, and `mute` / `unmute`, at once. Every wait has a deadline.
final class SurroundingsEndToEndTests: HostTestCase {
    private var widgetFile: URL { cli.root.appendingPathComponent("runtime/headlines/bar/widget.json") }
    private var ledgerFile: URL { cli.stateHome.appendingPathComponent("headlines/ledger.json") }

    /// What the host shows, from its widget document: when it was fetched, every source shown,
    /// and its state.
    private func published() -> (updatedAt: String, sources: Set<String>, freshness: Set<String>)? {
        guard let data = try? Data(contentsOf: widgetFile),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        let sources = Set((object["items"] as? [[String: Any]] ?? []).compactMap { $0["source"] as? String })
        return (object["updated_at"] as? String ?? "", sources, Set([object["state"] as? String].compactMap { $0 }))
    }

    /// From the ledger's last line (LedgerFile: each line holds the failures as they were).
    private func consecutiveFailures() -> Int? {
        guard let text = try? String(contentsOf: ledgerFile, encoding: .utf8), text.hasSuffix("\n"),
              let line = text.split(separator: "\n").last,
              let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return object["consecutiveFailures"] as? Int
    }

    func testAHostWhoseFeedsPartlyFailPublishesThemAndTheWaybarLineSaysPartial() throws {
        // Given a host on two feeds, one of which answers 404
        server.route("/good.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"],
                                           body: FixturePaths.data("feeds/sample-rss2.xml")))
        server.route("/gone.rss", .respond(status: 404, headers: [:], body: Data()))
        let good = server.baseURL.absoluteString + "/good.rss", gone = server.baseURL.absoluteString + "/gone.rss"
        try cli.writeConfig("""
            [source]
            provider=feeds
            feeds=\(good);\(gone)
            timeout=10s

            [refresh]
            interval=1h
            daily-budget=10

            """, at: configFile)
        let host = try startHost()

        // When its first reload is done
        try expectLine("reload ok", from: host, within: 10)

        // Then a waybar copy shows `partial`
        let bar = try startBackground(["waybar"])
        let line = try XCTUnwrap(bar.waitForLine(containing: "\"class\"", stream: .stdout, timeout: 5)?.text,
                                 "the waybar copy printed no line")
        XCTAssertTrue(line.contains("\"partial\""), line)
        XCTAssertTrue(line.contains("feed failing"), line)
    }

    func testNewHeadlinesPutTheBarsBackOnTheNewest() throws {
        // Given a host that reloaded, and bars turned two headlines on with `headlines next`
        try writeConfig(interval: "1h", dailyBudget: 10)
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)
        let offsetFile = cli.root.appendingPathComponent("runtime/headlines/offset.json")
        func offset() -> Int? {
            guard let data = try? Data(contentsOf: offsetFile),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
            return object["offset"] as? Int
        }
        XCTAssertEqual(try run(["next"]).status, 0)
        XCTAssertEqual(try run(["next"]).status, 0)
        XCTAssertEqual(offset(), 2)

        // When the server has new headlines and a refresh brings them
        var arrivals = try XCTUnwrap(JSONSerialization.jsonObject(with: FixturePaths.data("demo/arrivals.json")) as? [String: Any])
        arrivals["status"] = "ok"
        server.route(Self.path, .json(try JSONSerialization.data(withJSONObject: arrivals)))
        let mark = host.mark
        XCTAssertEqual(try run(["refresh"]).status, 0)
        try expectLine("reload ok", from: host, after: mark, within: 10)

        // Then the offset is back to 0: every bar shows the newest headline again (with a deadline)
        let deadline = Date().addingTimeInterval(5)
        while offset() != 0 && Date() < deadline { usleep(20_000) }
        XCTAssertEqual(offset(), 0)
    }

    func testSIGHUPWithAnotherSourceURLReloadsAtOnce() throws {
        // Given a host with an hourly interval that made its first reload
        try writeConfig(interval: "1h", dailyBudget: 10)
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)

        // When the config names another server and the host gets SIGHUP
        let other = LoopbackHTTPServer()
        try other.start()
        defer { other.stop() }
        other.route(Self.path, .json(fixture))
        try cli.writeConfig("""
            [source]
            provider=apitube
            base-url=\(other.baseURL.absoluteString)
            timeout=10s

            [refresh]
            interval=1h
            daily-budget=10

            """, at: configFile)
        let mark = host.mark
        host.send(SIGHUP)

        // Then the new server is asked within 5 s, not an hour later
        try expectLine("the news source changed: reloading now", from: host, after: mark, within: 5)
        XCTAssertNotNil(waitUntil(timeout: 5) { other.requests.contains { $0.path == Self.path } },
                        "the new source was not asked; the host printed:\n\(host.transcript)")
        try expectLine("reload ok", from: host, after: mark, within: 10)
    }

    func testAFetchByAnotherProcessUpdatesThePublishedTimelineAndResetsTheBackOff() throws {
        // Given a host whose reload failed (the server answers 503), so it is backing off
        server.route(Self.path, .json(Data("{}".utf8), status: 503))
        try writeConfig(interval: "1h", dailyBudget: 10)
        let host = try startHost()
        try expectLine("reload failed", from: host, within: 10)
        XCTAssertNotNil(waitUntil(timeout: 5) { (consecutiveFailures() ?? 0) >= 1 })
        let before = published()?.updatedAt ?? ""

        // When the server recovers and `headlines fetch` runs in another process
        server.route(Self.path, .json(fixture))
        let mark = host.mark
        let fetch = try run(["fetch"])
        XCTAssertEqual(fetch.status, 0, "fetch: \(fetch.stderr)")

        // Then the host adopts the cache at once: a new publication with fresh headlines, and the
        // back-off reset in the ledger
        try expectLine("the cache was refreshed by another process", from: host, after: mark, within: 5)
        XCTAssertNotNil(waitUntil(timeout: 5) {
            guard let p = published() else { return false }
            return p.updatedAt != before && p.freshness.contains("fresh") && !p.sources.isEmpty
        }, "the published timeline did not follow the fetch: \(String(describing: published()))")
        XCTAssertNotNil(waitUntil(timeout: 5) { consecutiveFailures() == 0 }, "the back-off was not reset: \(String(describing: consecutiveFailures()))")
    }

    func testMuteAndUnmuteApplyToThePublishedTimelineAtOnce() throws {
        // Given a host showing the fixture's headlines
        try writeConfig(interval: "1h", dailyBudget: 10)
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)
        XCTAssertNotNil(waitUntil(timeout: 5) { (published()?.sources.count ?? 0) > 1 })
        let source = try XCTUnwrap(published()?.sources.sorted().first)

        // When `headlines mute SOURCE` runs, the source leaves the published timeline at once
        let mute = try run(["mute", source])
        XCTAssertEqual(mute.status, 0, "mute: \(mute.stdout)\(mute.stderr)")
        XCTAssertNotNil(waitUntil(timeout: 5) { published().map { !$0.sources.contains(source) } ?? false },
                        "muted \(source) still shown; the host printed:\n\(host.transcript)")

        // When `headlines unmute SOURCE` runs, it comes back at once, with no reload
        let unmute = try run(["unmute", source])
        XCTAssertEqual(unmute.status, 0, "unmute: \(unmute.stdout)\(unmute.stderr)")
        XCTAssertNotNil(waitUntil(timeout: 5) { published()?.sources.contains(source) ?? false },
                        "unmuted \(source) not back; the host printed:\n\(host.transcript)")
        XCTAssertEqual(requestCount, 1, "muting or unmuting reloaded")
    }
}
