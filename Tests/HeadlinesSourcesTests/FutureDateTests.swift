import Foundation
import TestSupport
import XCTest
@testable import HeadlinesCore
@testable import HeadlinesSources

/// A date later than the fetch is clamped to the fetch time, whichever source sends it, so one
/// feed dated in the future (a wrong time zone, or 2099) cannot push every other source out of the
/// merged list or show as new.
final class FutureDateTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_795_000_000)

    private struct ByURL: HTTPTransport {
        let bodies: [String: String]
        func get(_ request: HTTPRequest) async throws -> HTTPResponse {
            HTTPResponse(status: 200, headers: ["Content-Type": "application/rss+xml"], body: Data(bodies[request.url.absoluteString]!.utf8))
        }
    }

    private func rss(_ name: String, count: Int, date: String) -> String {
        let items = (1...count).map {
            "<item><title>\(name) \($0)</title><link>https://\(name).example/\($0)</link><pubDate>\(date)</pubDate></item>"
        }
        return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(name)</title>\(items.joined())</channel></rss>"
    }

    func testAFeedDatedInTheFutureDoesNotCrowdOutAGoodFeed() async throws {
        // Given 40 items dated 2099 beside a good feed's 5 items of an hour ago
        let future = URL(string: "https://future.example/rss")!
        let good = URL(string: "https://good.example/rss")!
        let transport = ByURL(bodies: [
            future.absoluteString: rss("future", count: 40, date: "Thu, 01 Jan 2099 00:00:00 GMT"),
            good.absoluteString: rss("good", count: 5, date: "Tue, 17 Nov 2026 08:26:40 GMT"),
        ])
        let store = FeedStateStore(path: NSTemporaryDirectory() + "feeds-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(atPath: store.path) }
        let provider = FeedProvider(feeds: [future, good], store: store, transport: transport)

        // When both are fetched and merged
        let headlines = try await provider.fetch(now: now)

        // Then nothing is dated after the fetch, and the good feed's headlines are kept
        XCTAssertTrue(headlines.allSatisfy { $0.publishedAt <= now }, "a headline is dated after its fetch")
        XCTAssertEqual(headlines.filter { $0.source == "good" }.count, 5, "the good feed was crowded out")
    }

    func testABusyFeedLeavesEveryFeedItsShareOfTheList() {
        // Given a feed of 33 fresh items and two slower feeds of 10 older items each
        let at = { (n: Int) in self.now.addingTimeInterval(Double(-n * 60)) }
        let busy = (0..<33).map { headline("busy", $0, at($0)) }
        let slow = (0..<10).map { headline("slow", $0, at(100 + $0)) }
        let slower = (0..<10).map { headline("slower", $0, at(200 + $0)) }
        // When they are merged into a list of 20
        let merged = FeedProvider.fairMerge([busy, slow, slower], limit: 20)
        // Then each feed has its share (7, 7, 6), newest first, and a shorter feed's unused share
        // goes to the others
        XCTAssertEqual(merged.count, 20)
        XCTAssertEqual(Dictionary(grouping: merged, by: \.source).mapValues(\.count), ["busy": 7, "slow": 7, "slower": 6])
        XCTAssertEqual(merged.map(\.publishedAt), merged.map(\.publishedAt).sorted(by: >))
        let short = FeedProvider.fairMerge([busy, Array(slow.prefix(2))], limit: 20)
        XCTAssertEqual(Dictionary(grouping: short, by: \.source).mapValues(\.count), ["busy": 18, "slow": 2])
        // And the same link from two feeds is kept once
        XCTAssertEqual(FeedProvider.fairMerge([Array(busy.prefix(3)), Array(busy.prefix(3))], limit: 20).count, 3)
    }

    func testAFeedListedOldestFirstGivesItsNewestItemsToItsShare() {
        // Given a busy feed, and a feed that lists its ten items oldest first (feeds keep no order)
        let at = { (n: Int) in self.now.addingTimeInterval(Double(-n * 60)) }
        let busy = (0..<33).map { headline("busy", $0, at($0)) }
        let slow = (0..<10).map { headline("slow", $0, at(100 + $0)) }
        // When they are merged into a list of 10
        let merged = FeedProvider.fairMerge([busy, slow.reversed()], limit: 10)
        // Then the slow feed's five slots hold its five newest items, not the first five listed
        XCTAssertEqual(merged.filter { $0.source == "slow" }.map(\.id), (0..<5).map { "slow-\($0)" })
    }

    private func headline(_ source: String, _ n: Int, _ date: Date) -> Headline {
        Headline(id: "\(source)-\(n)", title: "\(source) \(n)", url: URL(string: "https://\(source).example/\(n)")!,
                 source: source, publishedAt: date)
    }

    func testAnAPIHeadlineDatedAheadIsClampedToTheFetch() throws {
        // Given an APITube article three hours ahead of the fetch (a wrong time zone)
        let body = #"{"status":"ok","results":[{"id":1,"title":"Ahead","href":"https://a.example/1","published_at":"2026-11-18T14:06:40Z"}]}"#
        let response = HTTPResponse(status: 200, headers: [:], body: Data(body.utf8))
        // When it is decoded
        let headlines = try APITubeProvider.decode(response, now: now)
        // Then it is dated at the fetch
        XCTAssertEqual(headlines.map(\.publishedAt), [now])
    }
}
