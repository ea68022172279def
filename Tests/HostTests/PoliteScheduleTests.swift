import Foundation
import TestSupport
import XCTest

/// Each feed is fetched when its publisher says, by a real host reloading every 5 s: a feed that
/// keeps an hour (max-age), one whose RSS says 60 minutes (ttl) and one that asked to wait an hour
/// (429 with Retry-After) are each requested once in 30 s, a restart in the middle included; a
/// feed that says nothing is requested at every reload, with its ETag echoed byte for byte.
final class PoliteScheduleTests: HostTestCase {
    private func rss(_ title: String, ttl: String = "") -> Data {
        Data("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>\(title)</title>\(ttl)
            <item><title>\(title) story</title><link>https://example.com/\(title)</link>
            <pubDate>Mon, 07 Dec 2026 10:00:00 GMT</pubDate></item></channel></rss>
            """.utf8)
    }

    func testEachFeedIsFetchedWhenItsPublisherSaysAcrossARestart() throws {
        // Given four feeds, three of which say how long to wait, and an ETag with quotes and a
        // weak prefix that must come back exactly
        let etag = #"W/"plain-7 a""#
        server.route("/maxage.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml",
                                                                    "Cache-Control": "public, max-age=3600", "ETag": #""m1""#],
                                            body: rss("maxage")))
        server.route("/ttl.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"],
                                         body: rss("ttl", ttl: "<ttl>60</ttl>")))
        server.route("/busy.rss", .respond(status: 429, headers: ["Retry-After": "3600"], body: Data()))
        server.route("/plain.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml", "ETag": etag],
                                           body: rss("plain")))
        try writeFeedsConfig(["/maxage.rss", "/ttl.rss", "/busy.rss", "/plain.rss"], interval: "5s", dailyBudget: 86400)

        // When a host reloads on its own for about 15 s, is restarted, and runs about 15 s more
        let first = try startHost()
        try expectLine("reload ok", from: first, within: 10)
        Thread.sleep(forTimeInterval: 13)
        _ = terminate(first)
        let second = try startHost()
        Thread.sleep(forTimeInterval: 15)
        let status = try run(["status"])
        _ = terminate(second)

        // Then the three feeds that asked were requested once each, the restart included
        let requests = server.requests
        func count(_ path: String) -> Int { requests.filter { $0.path == path }.count }
        XCTAssertEqual(count("/maxage.rss"), 1, "\(requests)")
        XCTAssertEqual(count("/ttl.rss"), 1, "\(requests)")
        XCTAssertEqual(count("/busy.rss"), 1, "\(requests)")
        // And the feed that says nothing at every reload (about six in 28 s), each after the
        // first with its ETag exactly as the server sent it
        let plain = requests.filter { $0.path == "/plain.rss" }
        XCTAssertGreaterThanOrEqual(plain.count, 4, "\(requests)")
        XCTAssertNil(plain.first?.header("If-None-Match"))
        for request in plain.dropFirst() { XCTAssertEqual(request.header("If-None-Match"), etag, "\(request)") }
        // And no request carries a query string the configured URL did not have
        XCTAssertTrue(requests.allSatisfy { !$0.target.contains("?") }, "\(requests.map(\.target))")
        // And `status` names each feed's next fetch and why
        for (feed, reason) in [("maxage.rss", "max-age"), ("ttl.rss", "ttl"), ("busy.rss", "Retry-After")] {
            let line = status.stdout.split(separator: "\n").first { $0.contains(feed) && $0.contains("next") } ?? ""
            XCTAssertTrue(line.contains(reason), "status says of \(feed): \(line)\n\(status.stdout)")
        }
    }
}
