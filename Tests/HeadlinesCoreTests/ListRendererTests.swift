import Foundation
import XCTest
@testable import HeadlinesCore
import TestSupport

final class ListRendererTests: XCTestCase {
    let now = fixtureNow

    private func headline(_ n: Int, title: String = "Title", image: String? = nil, age: TimeInterval = 600) -> Headline {
        Headline(id: "id-\(n)", title: title, url: url("https://example.com/\(n)"), source: "example.com",
                 publishedAt: fixtureNow.addingTimeInterval(-age), imageURL: image.map(url))
    }

    private func parse(_ json: String) throws -> NSArray {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSArray)
    }

    func testJSONShapeWithNullImage() throws {
        // Given two headlines, one without an image
        let headlines = [
            Headline(id: "9112301", title: "Tom & Jerry <b>", url: url("https://www.reuters.com/a"), source: "reuters.com",
                     publishedAt: date("2026-11-29T22:20:23.000Z"), imageURL: url("https://www.reuters.com/a.jpg"), summary: "not listed",
                     commentsURL: url("https://news.ycombinator.com/item?id=1")),
            Headline(id: "9112190", title: "Museum", url: url("https://www.nytimes.com/b"), source: "nytimes.com",
                     publishedAt: date("2026-11-29T19:48:03.250Z")),
        ]
        // When rendered as JSON
        let json = ListRenderer.json(headlines)
        // Then it is exactly the documented objects, with an explicit null image
        let expected: NSArray = [
            ["id": "9112301", "title": "Tom & Jerry <b>", "url": "https://www.reuters.com/a", "source": "reuters.com",
             "published_at": "2026-11-29T22:20:23.000Z", "image": "https://www.reuters.com/a.jpg",
             "comments_url": "https://news.ycombinator.com/item?id=1"],
            ["id": "9112190", "title": "Museum", "url": "https://www.nytimes.com/b", "source": "nytimes.com",
             "published_at": "2026-11-29T19:48:03.250Z", "image": NSNull(), "comments_url": NSNull()],
        ]
        XCTAssertEqual(try parse(json), expected)
        XCTAssertTrue(json.contains(#""image" : null"#) || json.contains(#""image":null"#), json)
        XCTAssertEqual(ListRenderer.json([]).filter { !$0.isWhitespace }, "[]")
    }

    func testJSONPublishedAtKeepsMilliseconds() throws {
        let json = ListRenderer.json(FixtureHeadlines.apitubeFL)
        let stamps = try parse(json).compactMap { ($0 as? NSDictionary)?["published_at"] as? String }
        XCTAssertEqual(stamps, ["2026-11-29T22:20:23.000Z", "2026-11-29T21:58:10.512Z", "2026-11-29T21:40:00.000Z",
                                "2026-11-29T21:15:42.123Z", "2026-11-29T20:59:59.999Z", "2026-11-29T20:30:00.000Z",
                                "2026-11-29T20:05:17.000Z", "2026-11-29T19:48:03.250Z", "2026-11-29T19:30:30.000Z",
                                "2026-11-29T19:02:11.001Z"])
    }

    func testTextListEscapesControlsAndBidi() {
        // Given headlines whose title and source carry terminal escapes and a bidi override
        var second = headline(2, title: "Plain", age: 3 * 3600)
        second.source = "evil\u{1B}]0;pwned\u{07}.example"
        let cached = CachedHeadlines(provider: "APITube", fetchedAt: now.addingTimeInterval(-60),
                                     headlines: [headline(1, title: "\u{1B}[2JClear \u{202E}txt.exe"), second])
        // When listed
        let text = ListRenderer.text(cached, status: RefreshStatus(), now: now)
        // Then each control is replaced and nothing else changes
        XCTAssertEqual(text, """
            1. \u{FFFD}[2JClear \u{FFFD}txt.exe
               example.com · 10 min ago
            2. Plain
               evil\u{FFFD}]0;pwned\u{FFFD}.example · 3 h ago

            """)
    }

    func testNumbersAreRightAlignedForTenOrMore() {
        let cached = CachedHeadlines(provider: "APITube", fetchedAt: now,
                                     headlines: (1...10).map { headline($0, title: "T\($0)") })
        let lines = ListRenderer.text(cached, status: RefreshStatus(), now: now).split(separator: "\n")
        XCTAssertEqual(lines.count, 20)
        XCTAssertEqual(lines[0], " 1. T1")
        XCTAssertEqual(lines[1], "    example.com · 10 min ago")
        XCTAssertEqual(lines[18], "10. T10")
    }

    func testStaleMarkerWhenTheLastFailureIsNewerThanTheCache() {
        // Given a cache fetched 2 h ago and a failure 5 min ago
        let cached = CachedHeadlines(provider: "APITube", fetchedAt: now.addingTimeInterval(-7200), headlines: [headline(1)])
        var status = RefreshStatus()
        status.recordFailure(provider: "APITube", at: now.addingTimeInterval(-300), message: "APITube is rate-limiting requests.")
        // When listed, Then the first line says it is stale and why
        XCTAssertEqual(ListRenderer.text(cached, status: status, now: now), """
            ! Stale: fetched 2 h ago; the last refresh failed 5 min ago: APITube is rate-limiting requests.
            1. Title
               example.com · 10 min ago

            """)
    }

    func testNoStaleMarkerWhenTheCacheIsNewerThanTheFailure() {
        let cached = CachedHeadlines(provider: "APITube", fetchedAt: now.addingTimeInterval(-60), headlines: [headline(1)])
        var status = RefreshStatus()
        status.recordFailure(provider: "APITube", at: now.addingTimeInterval(-3600), message: "old failure.")
        XCTAssertFalse(ListRenderer.text(cached, status: status, now: now).contains("Stale"))
    }

    func testEmptyCacheMessages() {
        XCTAssertEqual(ListRenderer.text(nil, status: RefreshStatus(), now: now), "No headlines cached yet: run `headlines fetch`.\n")
        var status = RefreshStatus()
        status.recordFailure(provider: "NewsAPI", at: now.addingTimeInterval(-120), message: "NewsAPI rejected the API key.")
        XCTAssertEqual(ListRenderer.text(CachedHeadlines(provider: "NewsAPI", fetchedAt: now, headlines: []), status: status, now: now),
                       "No headlines cached. The last refresh failed 2 min ago: NewsAPI rejected the API key.\n")
    }

    /// The failure message quotes the server's own words, so it is as untrusted as a title.
    func testFailureMessageIsEscapedForTheTerminal() {
        var status = RefreshStatus()
        status.recordFailure(provider: "APITube", at: now.addingTimeInterval(-60),
                             message: "APITube refused the request (ER0601: \u{1B}[2J\u{202E}gotcha): check that your plan allows it.")
        let stale = CachedHeadlines(provider: "APITube", fetchedAt: now.addingTimeInterval(-600), headlines: [headline(1)])
        for cached in [stale, nil] {
            let text = ListRenderer.text(cached, status: status, now: now)
            XCTAssertFalse(text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" }, text)
        }
    }
}
