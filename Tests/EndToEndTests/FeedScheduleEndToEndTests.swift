import Foundation
import TestSupport
import XCTest

/// The reload child fetches each feed when its publisher says: a feed fresh for an hour, one with
/// a ttl of an hour and one that answered 429 with Retry-After are fetched once over two
/// scheduled reloads, a feed with no hint at each; `status` names each feed's next fetch and why.
final class FeedScheduleEndToEndTests: EndToEndTestCase {
    private func rss(_ title: String, channelExtra: String = "") -> Data {
        Data("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>\(title)</title>\(channelExtra)
            <item><title>\(title) news</title><link>https://\(title).example.com/1</link><guid>\(title)-1</guid></item>
            </channel></rss>
            """.utf8)
    }

    private let etag = "W/\"plain-1\""

    private func serveFourFeeds() throws -> URL {
        let type = ["Content-Type": "application/rss+xml"]
        server.route("/cached.rss", .respond(status: 200, headers: type.merging(["Cache-Control": "max-age=3600"]) { a, _ in a },
                                             body: rss("cached")))
        server.route("/ttl.rss", .respond(status: 200, headers: type, body: rss("ttl", channelExtra: "<ttl>60</ttl>")))
        server.route("/limited.rss", .respond(status: 429, headers: ["Retry-After": "3600"], body: Data("slow down".utf8)))
        server.route("/plain.rss", .respond(status: 200, headers: type.merging(["ETag": etag]) { a, _ in a }, body: rss("plain")))
        let base = server.baseURL.absoluteString
        return try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(base)/cached.rss; \(base)/ttl.rss; \(base)/limited.rss; \(base)/plain.rss\n")
    }

    private func requests(_ path: String) -> [LoopbackHTTPServer.RecordedRequest] { server.requests.filter { $0.path == path } }

    func testEachFeedIsFetchedWhenItsPublisherSaysAndStatusSaysWhy() throws {
        let config = try serveFourFeeds()
        for _ in 0..<2 {
            let reload = try cli.reload(["--config", config.path])
            XCTAssertEqual(reload.status, 0, reload.stderr)
        }

        XCTAssertEqual(requests("/cached.rss").count, 1, "max-age=3600")
        XCTAssertEqual(requests("/ttl.rss").count, 1, "<ttl>60</ttl>")
        XCTAssertEqual(requests("/limited.rss").count, 1, "429 with Retry-After: 3600")
        XCTAssertEqual(requests("/plain.rss").count, 2, "no caching hint: every reload")
        XCTAssertEqual(requests("/plain.rss").last?.header("If-None-Match"), etag)
        XCTAssertEqual(server.requests.filter { $0.target != $0.path }.map(\.target), [], "a query string was added")

        let page = try cli.run(["--config", config.path, "status"])
        let feedLines = page.stdoutLines.filter { $0.hasPrefix("Feed:") }
        XCTAssertEqual(feedLines.count, 4, page.stdout)
        for (path, reason) in [("/cached.rss", "(max-age)"), ("/ttl.rss", "(ttl)"), ("/limited.rss", "(Retry-After)")] {
            let line = feedLines.first { $0.contains(path) } ?? ""
            XCTAssertTrue(line.contains("; next fetch ") && line.hasSuffix(reason), "\(path): \(line)")
        }
        XCTAssertTrue(feedLines.first { $0.contains("/plain.rss") }?.hasSuffix("; fetched at every reload") == true, page.stdout)

        struct Feed: Decodable { var url: String; var next_fetch: Date?; var next_fetch_reason: String? }
        struct Report: Decodable { var feeds: [Feed] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let json = try cli.run(["--config", config.path, "status", "--json"])
        let feeds = try decoder.decode(Report.self, from: Data(json.stdout.utf8)).feeds
        XCTAssertEqual(feeds.map { $0.next_fetch_reason ?? "-" }, ["max-age", "ttl", "Retry-After", "-"], json.stdout)
        let cachedNext = try XCTUnwrap(feeds[0].next_fetch, json.stdout)
        XCTAssertEqual(cachedNext.timeIntervalSinceNow, 3600, accuracy: 120, json.stdout)
    }

    func testAnExplicitRefreshFetchesEveryFeed() throws {
        let config = try serveFourFeeds()
        XCTAssertEqual(try cli.reload(["--config", config.path]).status, 0)
        let refresh = try cli.reload(["--config", config.path, "--all-feeds"])
        XCTAssertEqual(refresh.status, 0, refresh.stderr)
        for path in ["/cached.rss", "/ttl.rss", "/limited.rss", "/plain.rss"] {
            XCTAssertEqual(requests(path).count, 2, path)
        }
    }

    func testTheReportSaysWhenTheNextFeedIsDue() throws {
        let base = server.baseURL.absoluteString
        server.route("/cached.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml", "Cache-Control": "max-age=3600"],
                                             body: rss("cached")))
        let config = try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(base)/cached.rss\n")
        struct Report: Decodable { var nextDue: Date? }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let reload = try cli.reload(["--config", config.path])
        let report = try decoder.decode(Report.self, from: Data(reload.stdout.utf8))
        let due = try XCTUnwrap(report.nextDue, reload.stdout)
        XCTAssertEqual(due.timeIntervalSinceNow, 3600, accuracy: 120, reload.stdout)
    }

    func testAFeedThatAnswers410IsNoLongerFetchedAndStatusSaysSo() throws {
        let base = server.baseURL.absoluteString
        server.route("/gone.rss", .respond(status: 410, headers: [:], body: Data()))
        server.route("/plain.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: rss("plain")))
        let config = try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(base)/gone.rss; \(base)/plain.rss\n")
        let first = try cli.reload(["--config", config.path])
        XCTAssertTrue(first.stdout.contains("answered 410 Gone"), first.stdout)
        XCTAssertEqual(try cli.reload(["--config", config.path]).status, 0)

        XCTAssertEqual(requests("/gone.rss").count, 1)
        let page = try cli.run(["--config", config.path, "status"])
        let line = page.stdoutLines.first { $0.hasPrefix("Feed:") && $0.contains("/gone.rss") } ?? ""
        XCTAssertTrue(line.hasSuffix("GONE: it answered 410 Gone, so reloads no longer fetch it; remove it from [source] feeds"), page.stdout)
    }
}
