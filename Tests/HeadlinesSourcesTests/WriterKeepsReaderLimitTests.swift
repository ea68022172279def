import Foundation
import TestSupport
import XCTest
@testable import HeadlinesCore
@testable import HeadlinesSources

/// A writer never writes what its reader would refuse: three feeds of 4.1 MB whose links are long
/// runs of `/` (each under the 4 MiB feed cap) used to leave a 24.6 MB feeds.json and cache that
/// the next `list` or `status` set aside as corrupt, taking the good feed's headlines and every
/// validator with them.
final class WriterKeepsReaderLimitTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "writer-limit-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    private struct Routes: HTTPTransport {
        let bodies: [String: (Data, etag: String)]
        func get(_ request: HTTPRequest) async throws -> HTTPResponse {
            guard let (body, etag) = bodies[request.url.absoluteString] else {
                return HTTPResponse(status: 404, headers: [:], body: Data())
            }
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/rss+xml", "ETag": etag], body: body)
        }
    }

    /// An RSS feed of `count` items whose links end in `slashes` slashes (no guid: the link is the id too).
    private func feed(_ name: String, items count: Int, slashes: Int) -> Data {
        let run = String(repeating: "/", count: slashes)
        var xml = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(name)</title>"
        for i in 0..<count {
            xml += "<item><title>\(name) story \(i)</title><link>https://\(name).example.com/\(i)\(run)</link></item>"
        }
        return Data((xml + "</channel></rss>").utf8)
    }

    private func size(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }

    func testThreeFeedsOfOverlongLinksLeaveACacheAndFeedStateThatLoad() async throws {
        // Given three feeds of about 4.1 MB, each under the feed cap, whose links are long runs of
        // `/`, beside one good feed
        var bodies: [String: (Data, etag: String)] = ["https://good.example.com/rss": (feed("good", items: 5, slashes: 0), "\"good-1\"")]
        for name in ["slash1", "slash2", "slash3"] {
            let body = feed(name, items: 40, slashes: 102_000)
            XCTAssertLessThan(body.count, FeedParser.maxBytes)
            XCTAssertGreaterThan(body.count, 4_000_000)
            bodies["https://\(name).example.com/rss"] = (body, "\"\(name)-1\"")
        }
        let feeds = bodies.keys.sorted().map { URL(string: $0)! }
        let feedStore = FeedStateStore(path: dir + "/feeds.json")
        let provider = FeedProvider(feeds: feeds, store: feedStore, transport: Routes(bodies: bodies))
        let cache = HeadlineCache(path: dir + "/headlines.json")
        let refresher = Refresher(provider: provider, cache: cache, statusStore: RefreshStatusStore(path: dir + "/status.json"))

        // When they are fetched (as `headlines fetch` does) and the files read back
        let result = await refresher.refresh(now: now, warn: { XCTFail($0) })
        let shown = try result.get().headlines

        // Then both files are within what their readers accept, load without a warning, and keep
        // the good feed's headlines and validator
        for path in [cache.path, feedStore.path] {
            XCTAssertLessThanOrEqual(size(path), ReadLimits.stateFile, "\(path) is \(size(path)) bytes")
        }
        let cached = try XCTUnwrap(cache.load(now: now, warn: { XCTFail("the cache was refused: \($0)") }))
        XCTAssertEqual(Set(cached.headlines.map(\.title)), Set((0..<5).map { "good story \($0)" }))
        XCTAssertEqual(cached.headlines, shown, "what is shown is what was cached")
        let state = feedStore.load(now: now, warn: { XCTFail("feeds.json was refused: \($0)") })
        XCTAssertEqual(state.feeds["https://good.example.com/rss"]?.etag, "\"good-1\"")
        XCTAssertEqual(state.feeds["https://good.example.com/rss"]?.headlines.count, 5)
        XCTAssertTrue(shown.allSatisfy { $0.url.absoluteString.utf8.count <= 8192 })
    }

    func testACacheTooLongForItsReaderLosesItsOldestHeadlinesNotTheFile() throws {
        // Given headlines that together encode past the cache's limit (here a small one)
        let cache = JSONStateFile<CachedHeadlines>(path: dir + "/headlines.json", what: "cache", limit: 64 * 1024)
        let body = String(repeating: "w", count: 3000)
        let headlines = (0..<40).map { i in
            Headline(id: "id\(i)", title: "Story \(i)", url: URL(string: "https://example.com/\(i)")!, source: "example.com",
                     publishedAt: now.addingTimeInterval(Double(-60 * i)), summary: body)
        }
        // When it is stored
        try cache.store(CachedHeadlines(provider: "Feeds", fetchedAt: now, headlines: headlines))
        // Then the file fits, loads, and holds the newest headlines
        XCTAssertLessThanOrEqual(size(cache.path), 64 * 1024)
        let loaded = try XCTUnwrap(cache.load(now: now, warn: { XCTFail($0) }))
        XCTAssertGreaterThan(loaded.headlines.count, 10)
        XCTAssertLessThan(loaded.headlines.count, 40)
        XCTAssertEqual(loaded.headlines, Array(headlines.prefix(loaded.headlines.count)), "the oldest went, the newest stayed, in order")
    }

    func testAValueThatCannotShrinkIsNeverWrittenPastTheLimit() throws {
        // Given a status file with a limit smaller than its message, and an older good file
        let store = JSONStateFile<RefreshStatus>(path: dir + "/status.json", what: "status", limit: 512)
        var small = RefreshStatus()
        small.recordSuccess(provider: "Feeds", at: now)
        try store.store(small)
        var big = small
        big.recordFailure(provider: "Feeds", at: now, message: String(repeating: "long ", count: 200))
        // When the long one is stored, it is refused and the file is left as it was
        XCTAssertThrowsError(try store.store(big)) { XCTAssertTrue($0 is StateFileTooLarge, "\($0)") }
        XCTAssertEqual(store.load(now: now, warn: { XCTFail($0) }), small)
    }

    func testAReportTooLongForTheHostLosesItsOldestHeadlinesAndTheirImages() throws {
        // Given a report whose headlines encode past the limit (a small one here: the child
        // encodes with `ReloadReport.maxBytes` less its newline)
        let limit = 256 * 1024
        let link = String(repeating: "/", count: 4000)
        let headlines = (0..<(limit / 4000 + 50)).map { i in
            Headline(id: "id\(i)", title: "Story \(i)", url: URL(string: "https://example.com/\(i)\(link)")!, source: "s",
                     publishedAt: now.addingTimeInterval(Double(-i)))
        }
        var report = ReloadReport(headlines: headlines, fetchedAt: now, failure: nil)
        report.images = ["id0": "/tmp/a.png", "id\(headlines.count - 1)": "/tmp/b.png"]
        // When it is encoded for the host
        let data = try FileSizeLimit.encode(report, limit: limit, path: "the report")
        // Then it fits, and it kept the newest headlines and their images only
        XCTAssertLessThanOrEqual(data.count, limit)
        let decoded = try StateJSONDecoder.headlines().decode(ReloadReport.self, from: data)
        XCTAssertEqual(decoded.headlines, Array(headlines.prefix(decoded.headlines.count)))
        XCTAssertGreaterThan(decoded.headlines.count, headlines.count / 2)
        XCTAssertEqual(decoded.images, ["id0": "/tmp/a.png"])
    }

    func testSlashesAreNotEscaped() throws {
        // `\/` would double every slash of a link in every file and report.
        let text = String(decoding: try StateJSONEncoder.headlines().encode(["u": "https://a.example/b/c"]), as: UTF8.self)
        XCTAssertEqual(text, #"{"u":"https://a.example/b/c"}"#)
    }

    func testOverlongFieldsAreCutOrTheHeadlineDropped() {
        let long = String(repeating: "é", count: Headline.maxFieldBytes)
        let h = Headline(id: "a", title: long, url: URL(string: "https://example.com/a")!, source: long,
                         publishedAt: now, imageURL: URL(string: "https://example.com/" + String(repeating: "i", count: 5000)), summary: long)
        let bounded = h.bounded()
        XCTAssertEqual(bounded?.title.utf8.count, Headline.maxFieldBytes, "cut on a character boundary (é is 2 bytes)")
        XCTAssertEqual(bounded?.title, String(repeating: "é", count: Headline.maxFieldBytes / 2))
        XCTAssertEqual(bounded?.summary?.utf8.count, Headline.maxFieldBytes)
        XCTAssertNil(bounded?.imageURL)
        var longLink = h
        longLink.url = URL(string: "https://example.com/" + String(repeating: "/", count: 5000))!
        XCTAssertNil(longLink.bounded(), "a cut link would name another article")
        var longID = h
        longID.id = String(repeating: "x", count: 5000)
        XCTAssertNil(longID.bounded())
    }
}
