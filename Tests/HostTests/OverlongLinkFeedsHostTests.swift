import Foundation
import TestSupport
import XCTest

/// Three feeds of 4.1 MB whose links are long runs of `/` (each under the feed cap) beside a good
/// feed: the reload child's report must still fit what the host reads, so the host reloads ok and
/// the bar shows the good feed.
final class OverlongLinkFeedsHostTests: HostTestCase {
    /// An RSS feed of `count` items whose links end in `slashes` slashes (no guid: the link is the id too).
    private func feed(_ name: String, items count: Int, slashes: Int) -> Data {
        let run = String(repeating: "/", count: slashes)
        let items = (0..<count).map { "<item><title>\(name) story \($0)</title><link>https://\(name).example.com/\($0)\(run)</link></item>" }
        return Data("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(name)</title>\(items.joined())</channel></rss>".utf8)
    }

    func testAHostOnFeedsOfOverlongLinksReloadsOkAndShowsTheGoodFeed() throws {
        // Given the good feed and three of two items each, every link about 2 MB
        var paths: [String] = []
        for (name, count, slashes) in [("good", 5, 0), ("slash1", 2, 2_040_000), ("slash2", 2, 2_040_000), ("slash3", 2, 2_040_000)] {
            let body = feed(name, items: count, slashes: slashes)
            if slashes > 0 { XCTAssertTrue((4_000_000..<4_194_304).contains(body.count), "\(name) is \(body.count) bytes") }
            server.route("/\(name).rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: body))
            paths.append("/\(name).rss")
        }
        try writeFeedsConfig(paths, dailyBudget: 50)

        // When a host reloads them
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 60)

        // Then the bar shows the good feed, nothing failed, and a SIGTERM ends it with 0
        let waybar = cli.root.appendingPathComponent("runtime/headlines/bar/waybar")
        var line = ""
        _ = waitUntil(timeout: 5) {
            line = (try? String(contentsOf: waybar, encoding: .utf8)) ?? ""
            return line.contains("good story")
        }
        XCTAssertTrue(line.contains("good story"), "the bar line: \(line)")
        XCTAssertFalse(line.contains("Headlines unavailable"), line)
        for trouble in ["reload failed", "without a report", "killed"] {
            XCTAssertTrue(host.lines(containing: trouble).isEmpty, "\(trouble): \(host.transcript)")
        }
        assertStopsQuickly(host, "a host on feeds of overlong links")
    }
}
