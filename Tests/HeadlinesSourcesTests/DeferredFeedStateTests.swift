import Foundation
import XCTest
@testable import HeadlinesCore
@testable import HeadlinesSources

/// The reload child prints its report before it writes feeds.json (those fsyncs held up
/// every reload's bar line): with `deferredWrites` set, the fetch leaves the file alone and
/// `flush` writes what the fetch would have written.
final class DeferredFeedStateTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private let feedURL = URL(string: "https://news.example.com/feed.xml")!
    private var store: FeedStateStore!

    override func setUp() { store = FeedStateStore(path: NSTemporaryDirectory() + "feeds-\(UUID().uuidString).json") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: store.path) }

    private struct Answer: HTTPTransport {
        func get(_ request: HTTPRequest) async throws -> HTTPResponse {
            HTTPResponse(status: 200, headers: ["Content-Type": "application/rss+xml", "ETag": "\"v7\""], body: Data("""
                <?xml version="1.0"?><rss version="2.0"><channel><title>News</title>
                <item><title>One</title><link>https://news.example.com/1</link><guid>1</guid></item>
                </channel></rss>
                """.utf8))
        }
    }

    func testTheFeedStateIsWrittenAtTheFlushNotDuringTheFetch() async throws {
        var provider = FeedProvider(feeds: [feedURL], store: store, transport: Answer())
        let later = DeferredWrites()
        provider.deferredWrites = later

        let headlines = try await provider.fetch(now: now)

        XCTAssertEqual(headlines.map(\.title), ["One"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.path), "feeds.json was written during the fetch")
        later.flush()
        let state = try XCTUnwrap(store.load(now: now, warn: { XCTFail($0) }).feeds[feedURL.absoluteString])
        XCTAssertEqual(state.etag, "\"v7\"")
        XCTAssertEqual(state.headlines.map(\.title), ["One"])
    }

    func testWithoutDeferredWritesTheFetchWritesAsBefore() async throws {
        let provider = FeedProvider(feeds: [feedURL], store: store, transport: Answer())
        _ = try await provider.fetch(now: now)
        XCTAssertEqual(store.load(now: now, warn: { XCTFail($0) }).feeds[feedURL.absoluteString]?.etag, "\"v7\"")
    }
}
