import Foundation
import TestSupport
import XCTest
@testable import HeadlinesCore
@testable import HeadlinesSources

/// feeds.json keeps per feed its validators, its last error and at most the headlines the
/// provider would show: a feed with thousands of items leaves a small file.
final class FeedStateSizeTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private let feedURL = URL(string: "https://big.example.com/feed.xml")!
    private var store: FeedStateStore!

    override func setUp() { store = FeedStateStore(path: NSTemporaryDirectory() + "feeds-\(UUID().uuidString).json") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: store.path) }

    private struct Answer: HTTPTransport {
        let response: HTTPResponse
        func get(_ request: HTTPRequest) async throws -> HTTPResponse { response }
    }

    /// An RSS feed of `count` items, item i published i minutes before `now`.
    private func bigFeed(_ count: Int) -> Data {
        var xml = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Big</title>"
        for i in 0..<count {
            let date = now.addingTimeInterval(Double(-60 * i))
            xml += "<item><title>Item \(i)</title><link>https://big.example.com/\(i)</link><guid>g\(i)</guid>"
                + "<pubDate>\(Self.rfc822(date))</pubDate><description>Some words about item \(i).</description></item>"
        }
        return Data((xml + "</channel></rss>").utf8)
    }

    private static func rfc822(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }

    func testAFeedOfThousandsOfItemsLeavesASmallStateFile() async throws {
        // Given a feed of 5,000 items with validators
        let provider = FeedProvider(feeds: [feedURL], store: store, transport: Answer(response: HTTPResponse(
            status: 200, headers: ["Content-Type": "application/rss+xml", "ETag": "\"v1\""], body: bigFeed(5000))))

        // When it is fetched
        let headlines = try await provider.fetch(now: now)

        // Then the provider shows its newest page, and feeds.json holds that page only
        XCTAssertEqual(headlines.count, provider.maxHeadlines)
        let state = try XCTUnwrap(store.load(now: now, warn: { XCTFail($0) }).feeds[feedURL.absoluteString])
        XCTAssertEqual(state.headlines.count, provider.maxHeadlines)
        XCTAssertEqual(state.headlines.first?.title, "Item 0")
        XCTAssertEqual(state.etag, "\"v1\"")
        let size = try FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int ?? 0
        XCTAssertLessThan(size, 32 * 1024, "feeds.json is \(size) bytes")
    }

    func testAnOldOverfullStateIsCutOnTheNext304() async throws {
        // Given a feeds.json from before the cap, with 3,000 headlines for the feed
        var old = FeedState()
        old.etag = "\"v1\""
        old.headlines = (0..<3000).map {
            Headline(id: "g\($0)", title: "Item \($0)", url: URL(string: "https://big.example.com/\($0)")!,
                     source: "Big", publishedAt: now.addingTimeInterval(Double(-60 * $0)))
        }
        var states = FeedStates()
        states.feeds[feedURL.absoluteString] = old
        try store.store(states)

        // When the server answers 304 Not Modified
        let provider = FeedProvider(feeds: [feedURL], store: store, transport: Answer(response: HTTPResponse(status: 304, headers: [:], body: Data())))
        let headlines = try await provider.fetch(now: now)

        // Then the same newest page is shown and only it is kept
        XCTAssertEqual(headlines.map(\.id), (0..<provider.maxHeadlines).map { "g\($0)" })
        XCTAssertEqual(store.load(now: now, warn: { XCTFail($0) }).feeds[feedURL.absoluteString]?.headlines.count, provider.maxHeadlines)
    }
}
