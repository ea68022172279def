import Foundation
import TestSupport
import XCTest

/// `headlines refresh` says "ok" only when every feed answered: a feed answering 404 beside a
/// good one is named, through the host and without one.
final class PartialRefreshWordsTests: HostTestCase {
    private func writeFeedsConfig() throws -> URL {
        server.route("/good.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"],
                                           body: FixturePaths.data("feeds/sample-rss2.xml")))
        server.route("/gone.rss", .respond(status: 404, headers: [:], body: Data("not here".utf8)))
        let gone = server.baseURL.appendingPathComponent("gone.rss")
        try cli.writeConfig("""
            [source]
            provider=feeds
            feeds=\(server.baseURL.appendingPathComponent("good.rss").absoluteString) \(gone.absoluteString)
            [refresh]
            interval=1h
            daily-budget=48
            [notify]
            enabled=false

            """, at: configFile)
        return gone
    }

    func testRefreshThroughTheHostNamesTheFeedThatAnswered404() throws {
        // Given a host on a good feed and one that answers 404, after its first reload
        let gone = try writeFeedsConfig()
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)

        // When `headlines refresh` runs
        let refresh = try run(["refresh"])

        // Then it names the failing feed and does not say ok
        let line = refresh.stdoutLines.first { $0.hasPrefix("Reloaded by the host") } ?? ""
        XCTAssertTrue(line.contains(", but 1 feed failed: ") && line.contains(gone.absoluteString), refresh.stdout + refresh.stderr)
        XCTAssertFalse(line.contains("ok"), line)
        // And the host's log says so as a warning too
        try expectLine("but 1 feed failed", from: host, within: 5)
    }

    /// No host runs: `refresh` has the bus start one, waits for that host's first reload, which
    /// is the only request to each feed, names the failing feed, and prints nothing of the host's.
    func testRefreshWithoutAHostStartsOneMakesOneRequestAndNamesTheFeedThatAnswered404() throws {
        // Given no host, a good feed and one that answers 404
        let gone = try writeFeedsConfig()

        // When `headlines refresh` runs
        let refresh = try cli.run(["refresh", "--config", configFile.path], environment: environment)

        // Then the host the bus started reloads once, and refresh names the failing feed
        XCTAssertEqual(refresh.status, 0, refresh.stderr)
        let line = refresh.stdoutLines.first { $0.hasPrefix("Reloaded by the host (pid ") } ?? ""
        XCTAssertTrue(line.contains(", but 1 feed failed: ") && line.contains(gone.absoluteString), refresh.stdout + refresh.stderr)
        XCTAssertEqual(refresh.stderr, "", "refresh printed the host's words")
        Thread.sleep(forTimeInterval: 1)
        let paths = Dictionary(grouping: server.requests.map(\.path), by: { $0 }).mapValues(\.count)
        XCTAssertEqual(paths.values.sorted(), [1, 1], "one request to each feed: \(paths)")
    }
}
