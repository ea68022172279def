import Foundation
@testable import HeadlinesCore
@testable import HeadlinesSources
import XCTest
import TestSupport

/// Any JSON API, read through key paths (the seeds' jsonplaceholder widget).
final class JSONAPIProviderTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    func testJsonplaceholderPostsWithALinkTemplate() throws {
        // Given jsonplaceholder's shape: a top-level list with ids and titles but no links
        let body = Data(#"[{"userId":1,"id":1,"title":"sunt aut facere","body":"x"},{"userId":1,"id":2,"title":"qui &amp; est","body":"y"}]"#.utf8)
        let paths = JSONAPIProvider.Paths(items: "", title: "title", link: nil,
                                          linkTemplate: "https://jsonplaceholder.typicode.com/posts/{id}", id: "id")
        // When decoded
        let headlines = try JSONAPIProvider.decode(body, paths: paths, source: "jsonplaceholder.typicode.com", now: now)
        // Then each post is a headline with the templated link, entities decoded, dated now
        XCTAssertEqual(headlines, [
            Headline(id: "1", title: "sunt aut facere", url: URL(string: "https://jsonplaceholder.typicode.com/posts/1")!,
                     source: "jsonplaceholder.typicode.com", publishedAt: now),
            Headline(id: "2", title: "qui & est", url: URL(string: "https://jsonplaceholder.typicode.com/posts/2")!,
                     source: "jsonplaceholder.typicode.com", publishedAt: now),
        ])
    }

    func testNestedPathsDatesSourcesAndUnsafeLinks() throws {
        let body = Data(#"{"data":{"items":[{"attributes":{"headline":"B","link":"https://ex.com/b","when":"2026-01-02T00:00:00Z","pub":{"name":"Ex"}},"uid":"b"},{"attributes":{"headline":"A","link":"https://ex.com/a","when":"Thu, 01 Jan 2026 00:00:00 GMT","pub":{"name":"Ex"}},"uid":"a"},{"attributes":{"headline":"Evil","link":"javascript:alert(1)"},"uid":"e"}]}}"#.utf8)
        let paths = JSONAPIProvider.Paths(items: "data.items", title: "attributes.headline", link: "attributes.link",
                                          date: "attributes.when", id: "uid", source: "attributes.pub.name")
        let headlines = try JSONAPIProvider.decode(body, paths: paths, source: "ex.com", now: now)
        XCTAssertEqual(headlines.map(\.id), ["b", "a"], "newest first; the javascript: link is dropped")
        XCTAssertEqual(headlines.map(\.source), ["Ex", "Ex"])
        XCTAssertEqual(headlines.last?.publishedAt, ISO8601.parse("2026-01-01T00:00:00Z"))
    }

    func testNoListAtThePathIsAClearError() {
        XCTAssertThrowsError(try JSONAPIProvider.decode(Data(#"{"data":{}}"#.utf8), paths: .init(items: "data.items"), source: "x", now: now)) { error in
            XCTAssertEqual(error as? NewsError, .malformedResponse(detail: "no list at 'data.items'"))
        }
        XCTAssertThrowsError(try JSONAPIProvider.decode(Data("<html>".utf8), paths: .init(), source: "x", now: now))
    }

    func testTheJSONProviderNeedsAURLInTheConfig() {
        XCTAssertThrowsError(try Config.parse(groups: ["source": ["provider": "json"]], file: "h.conf"))
        let config = try? Config.parse(groups: ["source": ["provider": "json", "url": "https://api.example.com/x", "items-path": "data",
                                                           "title-path": "t", "link-template": "https://example.com/{id}"]], file: "h.conf")
        XCTAssertEqual(config?.jsonURL, URL(string: "https://api.example.com/x"))
        XCTAssertEqual(config?.jsonPaths.linkTemplate, "https://example.com/{id}")
    }

    func testJSONValueWalksPathsAndPrintsNumbersLikeNSNumber() throws {
        let v = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"a":{"b":[{"c":42},{"c":1.5}]},"s":"x","n":null,"t":true}"#.utf8))
        XCTAssertEqual(v.value(at: "a.b.0.c")?.text, "42")
        XCTAssertEqual(v.value(at: "a.b.1.c")?.text, "1.5")
        XCTAssertEqual(v.value(at: "s")?.text, "x")
        XCTAssertNil(v.value(at: "n")?.text)
        XCTAssertNil(v.value(at: "t")?.text)
        XCTAssertNil(v.value(at: "a.b.2.c"))
        XCTAssertNil(v.value(at: "s.x"))
        XCTAssertEqual(JSONAPIProvider.percentEncodedForPath("a b/ü?#"), "a%20b/%C3%BC%3F%23")
    }
}

/// `date-path` reads Unix epochs as well as text dates (Reddit's `created_utc`).
final class JSONAPIEpochDateTests: XCTestCase {
    func testEpochSecondsAndMillisecondsAsNumbersOrStrings() throws {
        // Given Reddit's listing with created_utc in every form an API uses
        let paths = JSONAPIProvider.Paths(items: "data.children", title: "data.title", link: "data.url",
                                          date: "data.created_utc", id: "data.id", source: "data.subreddit")
        // When it is decoded
        let headlines = try JSONAPIProvider.decode(FixturePaths.data("json/reddit-created-utc.json"), paths: paths,
                                                   source: "www.reddit.com", now: fixtureNow)
        // Then each date is the epoch it names, milliseconds told from seconds by magnitude
        XCTAssertEqual(headlines.map(\.id), ["1h2d4fa", "1h2d4f5", "1h2d4f6", "1h2d4f7", "1h2d4f8", "1h2d4f9"])
        XCTAssertEqual(headlines.map(\.publishedAt), [
            fixtureNow, // no date: now
            date("2026-11-29T23:30:00Z"), date("2026-11-29T23:00:00Z"), date("2026-11-29T22:00:00Z"),
            date("2026-11-29T21:00:00.250Z"), date("2026-11-29T20:00:00.500Z"),
        ])
        XCTAssertEqual(Set(headlines.map(\.source)), ["news"])
    }

    func testTextDatesStillWinAndNonsenseIsNoDate() {
        XCTAssertEqual(JSONAPIProvider.date(from: .string("2026-11-29T20:00:00Z")), date("2026-11-29T20:00:00Z"))
        XCTAssertEqual(JSONAPIProvider.date(from: .string("Sun, 29 Nov 2026 20:00:00 GMT")), date("2026-11-29T20:00:00Z"))
        XCTAssertNil(JSONAPIProvider.date(from: .integer(0)))
        XCTAssertNil(JSONAPIProvider.date(from: .number(-5)))
        XCTAssertNil(JSONAPIProvider.date(from: .string("1e9")))
        XCTAssertNil(JSONAPIProvider.date(from: .bool(true)))
    }
}
