import Foundation
import XCTest
@testable import HeadlinesCore
@testable import HeadlinesSources

/// Each feed headline names the configured feed it came from (the per-feed notification policy
/// and the silence of a newly added feed need it), also when feeds.json predates that.
final class HeadlineFeedTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private let first = URL(string: "https://one.example/feed.xml")!
    private let second = URL(string: "https://two.example/rss")!
    private var store: FeedStateStore!

    override func setUp() { store = FeedStateStore(path: NSTemporaryDirectory() + "feeds-\(UUID().uuidString).json") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: store.path) }

    /// Each feed answers with one item named after its host; a request carrying an ETag gets a 304.
    private struct Answer: HTTPTransport {
        func get(_ request: HTTPRequest) async throws -> HTTPResponse {
            if request.headers["If-None-Match"] != nil { return HTTPResponse(status: 304, headers: [:], body: Data()) }
            let host = request.url.host ?? ""
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/rss+xml"], body: Data("""
                <?xml version="1.0"?><rss version="2.0"><channel><title>\(host)</title>
                <item><title>From \(host)</title><link>https://\(host)/1</link><guid>\(host)-1</guid></item>
                </channel></rss>
                """.utf8))
        }
    }

    func testEachHeadlineNamesItsConfiguredFeed() async throws {
        let headlines = try await FeedProvider(feeds: [first, second], store: store, transport: Answer()).fetch(now: now)
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: headlines.map { ($0.title, $0.feed) }),
                       ["From one.example": first.absoluteString, "From two.example": second.absoluteString])
    }

    func testHeadlinesStoredWithoutTheirFeedNameItAfterA304() async throws {
        // Given feeds.json from before headlines named their feed, with an ETag
        var state = FeedState()
        state.etag = "\"v1\""
        state.lastSuccess = now.addingTimeInterval(-7200)
        state.headlines = [Headline(id: "old-1", title: "Stored", url: URL(string: "https://one.example/1")!,
                                    source: "one.example", publishedAt: now.addingTimeInterval(-7200))]
        var states = FeedStates()
        states.feeds[first.absoluteString] = state
        try store.store(states)
        // When the feed answers 304, the stored headline names the feed
        let headlines = try await FeedProvider(feeds: [first], store: store, transport: Answer()).fetch(now: now)
        XCTAssertEqual(headlines.map(\.title), ["Stored"])
        XCTAssertEqual(headlines.map(\.feed), [first.absoluteString])
    }

    func testAHeadlineWithoutAFeedEncodesAsBeforeAndOldJSONDecodes() throws {
        let old = Data(#"{"id":"a","title":"T","url":"https://x.example/a","source":"x","publishedAt":"2027-01-15T08:00:00Z"}"#.utf8)
        let decoded = try StateJSONDecoder.headlines().decode(Headline.self, from: old)
        XCTAssertNil(decoded.feed)
        let text = String(decoding: try StateJSONEncoder.headlines().encode(decoded), as: UTF8.self)
        XCTAssertFalse(text.contains("feed"), text)
    }
}
