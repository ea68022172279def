import Foundation
import XCTest
@testable import HeadlinesCore
@testable import HeadlinesSources
import TestSupport

/// A scheduled reload fetches only the feeds that are due; the others cost no request and keep
/// their stored headlines. An explicit refresh fetches every one. A 410 stops a feed, a
/// permanent redirect moves it.
final class FeedProviderScheduleTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private let cached = URL(string: "https://cached.example.com/feed.xml")!
    private let plain = URL(string: "https://plain.example.com/feed.xml")!
    private var store: FeedStateStore!

    override func setUp() { store = FeedStateStore(path: NSTemporaryDirectory() + "feeds-\(UUID().uuidString).json") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: store.path) }

    /// Answers each URL with its own status and headers and an RSS body of one item named
    /// after the host; records every request.
    final class Server: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var answers: [String: HTTPResponse] = [:]
        private var log: [HTTPRequest] = []

        func answer(_ url: URL, status: Int = 200, headers: [String: String] = [:], movedTo: URL? = nil) {
            let host = url.host ?? "feed"
            var response = HTTPResponse(status: status, headers: headers.merging(["Content-Type": "application/rss+xml"]) { a, _ in a },
                                        body: Data("""
                <rss version="2.0"><channel><title>\(host)</title>
                <item><title>From \(host)</title><link>https://\(host)/1</link><guid>\(host)-1</guid></item></channel></rss>
                """.utf8))
            response.permanentLocation = movedTo
            lock.withLock { answers[url.absoluteString] = response }
        }

        var requests: [HTTPRequest] { lock.withLock { log } }
        func requested(_ url: URL) -> Int { requests.filter { $0.url == url }.count }

        func get(_ request: HTTPRequest) async throws -> HTTPResponse {
            try lock.withLock {
                log.append(request)
                guard let answer = answers[request.url.absoluteString] else { throw NewsError.unreachable(detail: "no route") }
                return answer
            }
        }
    }

    private func provider(_ server: Server, onlyDue: Bool = true, feeds: [URL]? = nil) -> FeedProvider {
        var provider = FeedProvider(feeds: feeds ?? [cached, plain], store: store, transport: server)
        provider.onlyDue = onlyDue
        return provider
    }

    func testAFeedThatIsNotDueCostsNoRequestAndKeepsItsHeadlines() async throws {
        let server = Server()
        server.answer(cached, headers: ["Cache-Control": "max-age=3600"])
        server.answer(plain)
        let first = try await provider(server).fetchWithReport(now: now)
        XCTAssertEqual(Set(first.headlines.map(\.title)), ["From cached.example.com", "From plain.example.com"])

        let later = try await provider(server).fetchWithReport(now: now.addingTimeInterval(600))

        XCTAssertEqual(server.requested(cached), 1, "a feed fresh for an hour was fetched again after ten minutes")
        XCTAssertEqual(server.requested(plain), 2, "a feed with no caching hint is fetched at every reload")
        XCTAssertEqual(Set(later.headlines.map(\.title)), ["From cached.example.com", "From plain.example.com"])
        let state = try XCTUnwrap(store.load(now: now, warn: { XCTFail($0) }).feeds[cached.absoluteString])
        XCTAssertEqual(state.nextFetch, now.addingTimeInterval(3600))
        XCTAssertEqual(state.nextFetchReason, "max-age")

        _ = try await provider(server).fetchWithReport(now: now.addingTimeInterval(3600))
        XCTAssertEqual(server.requested(cached), 2, "the feed was not fetched once its max-age had passed")
    }

    func testAnExplicitRefreshFetchesEveryFeed() async throws {
        let server = Server()
        server.answer(cached, headers: ["Cache-Control": "max-age=3600"])
        server.answer(plain)
        _ = try await provider(server).fetchWithReport(now: now)
        _ = try await provider(server, onlyDue: false).fetchWithReport(now: now.addingTimeInterval(600))
        XCTAssertEqual(server.requested(cached), 2)
    }

    func testNextDueIsTheEarliestNextFetchOrNilWhenAFeedIsDueAtEveryReload() async throws {
        let server = Server()
        server.answer(cached, headers: ["Cache-Control": "max-age=3600"])
        server.answer(plain, headers: ["Cache-Control": "max-age=600"])
        let both = try await provider(server).fetchWithReport(now: now)
        XCTAssertEqual(both.nextDue, now.addingTimeInterval(600))

        server.answer(plain)
        let oneUnhinted = try await provider(server).fetchWithReport(now: now.addingTimeInterval(600))
        XCTAssertNil(oneUnhinted.nextDue, "a feed due at every reload leaves the schedule to the reloads")
    }

    func testAPerFeedIntervalHoldsTheFeedBack() async throws {
        let server = Server()
        server.answer(plain)
        var provider = provider(server, feeds: [plain])
        provider.intervals = [plain.absoluteString: 7200]
        let first = try await provider.fetchWithReport(now: now)
        _ = try await provider.fetchWithReport(now: now.addingTimeInterval(3600))
        XCTAssertEqual(server.requested(plain), 1)
        XCTAssertEqual(first.nextDue, now.addingTimeInterval(7200))
        XCTAssertEqual(store.load(now: now, warn: { XCTFail($0) }).feeds[plain.absoluteString]?.nextFetchReason, "interval")
    }

    func testAReloadWithNothingDueWritesNothing() async throws {
        let server = Server()
        server.answer(cached, headers: ["Cache-Control": "max-age=3600"])
        let disk = RecordingFileSystem()
        store = FeedStateStore(path: "/cache/feeds.json", fileSystem: disk)
        _ = try await provider(server, feeds: [cached]).fetchWithReport(now: now)
        XCTAssertTrue(disk.log.all.contains { if case .rename = $0 { return true } else { return false } }, "the first fetch wrote nothing")
        let written = disk.log.all.count

        _ = try await provider(server, feeds: [cached]).fetchWithReport(now: now.addingTimeInterval(60))

        XCTAssertEqual(server.requested(cached), 1)
        XCTAssertEqual(disk.log.all.dropFirst(written).filter { if case .read = $0 { return false } else { return true } }, [],
                       "a reload that fetched nothing wrote feeds.json")
    }

    func testAFeedThatIsGoneIsDroppedFromTheReloadsWithOneSentence() async throws {
        let server = Server()
        server.answer(cached, status: 410)
        server.answer(plain)
        let report = try await provider(server).fetchWithReport(now: now)
        XCTAssertEqual(report.partialFailures, [
            "The feed \(cached.absoluteString) answered 410 Gone: its publisher removed it, so reloads no longer fetch it; remove it from [source] feeds.",
        ])
        XCTAssertNotNil(store.load(now: now, warn: { XCTFail($0) }).feeds[cached.absoluteString]?.goneAt)

        let next = try await provider(server).fetchWithReport(now: now.addingTimeInterval(3600))
        XCTAssertEqual(server.requested(cached), 1, "a feed that answered 410 was fetched again")
        XCTAssertEqual(next.partialFailures, [], "the sentence is said once, when the 410 came")
        XCTAssertNil(next.nextDue, "the gone feed holds nothing back and the other is due at every reload")
    }

    func testAPermanentRedirectMovesTheFeed() async throws {
        let server = Server()
        let moved = URL(string: "https://new.example.com/feed.xml")!
        server.answer(plain, movedTo: moved)
        server.answer(moved, headers: ["ETag": "W/\"v1\""])
        _ = try await provider(server, feeds: [plain]).fetchWithReport(now: now)
        XCTAssertEqual(store.load(now: now, warn: { XCTFail($0) }).feeds[plain.absoluteString]?.movedTo, moved)

        _ = try await provider(server, feeds: [plain]).fetchWithReport(now: now.addingTimeInterval(60))
        XCTAssertEqual(server.requests.map(\.url), [plain, moved])
    }

    func testTheValidatorsGoBackByteForByte() async throws {
        let server = Server()
        let etag = " W/\"a b\"  "
        server.answer(plain, headers: ["ETag": etag, "Last-Modified": "Fri, 15 Jan 2027 07:00:00 GMT"])
        _ = try await provider(server, feeds: [plain]).fetchWithReport(now: now)
        _ = try await provider(server, feeds: [plain]).fetchWithReport(now: now.addingTimeInterval(60))
        XCTAssertEqual(server.requests.last?.headers["If-None-Match"], etag)
        XCTAssertEqual(server.requests.last?.headers["If-Modified-Since"], "Fri, 15 Jan 2027 07:00:00 GMT")
    }
}
