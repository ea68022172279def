import Foundation
import XCTest
import TestSupport
@testable import HeadlinesCore
@testable import HeadlinesSources

/// What real API responses need beyond the documented shape. Each test names
/// one behaviour; the fixtures are hand-written to pin it down.
final class RealResponseDecodingTests: XCTestCase {
    // MARK: links

    func testTabsAndNewlinesInsideAnAPITubeLinkAreRemovedNotEncoded() throws {
        // Given an APITube article whose href and image carry tabs and line breaks
        let response = FixturePaths.response("apitube/href-with-tabs-and-newlines.json")
        // When it is decoded
        let headlines = try APITubeProvider.decode(response, now: fixtureNow)
        // Then the links are the ones a browser would open
        XCTAssertEqual(headlines.map(\.url), [url("https://www.example.com/news/2026/11/29/long-story?id=7")])
        XCTAssertEqual(headlines.map(\.imageURL), [url("https://img.example.com/pic.jpg")])
    }

    func testTabsAndNewlinesInsideANewsAPILinkAreRemovedNotEncoded() throws {
        let headlines = try NewsAPIProvider.decode(FixturePaths.response("newsapi/url-with-tabs-and-newlines.json"), now: fixtureNow)
        XCTAssertEqual(headlines.map(\.url), [url("https://www.example.com/2026/11/29/long-story.html")])
        XCTAssertEqual(headlines.map(\.id), ["https://www.example.com/2026/11/29/long-story.html"])
        XCTAssertEqual(headlines.map(\.imageURL), [url("https://img.example.com/pic.jpg")])
    }

    func testTabsAndNewlinesInAJSONLinkOrTemplateValueAreRemoved() throws {
        let body = Data(#"[{"id":"\n12\t","title":"T","url":"https://ex.com/a\n/b"}]"#.utf8)
        let direct = try JSONAPIProvider.decode(body, paths: .init(), source: "ex.com", now: fixtureNow)
        XCTAssertEqual(direct.map(\.url), [url("https://ex.com/a/b")])
        let templated = try JSONAPIProvider.decode(body, paths: .init(link: nil, linkTemplate: "https://ex.com/p/{id}"),
                                                   source: "ex.com", now: fixtureNow)
        XCTAssertEqual(templated.map(\.url), [url("https://ex.com/p/12")])
    }
}

/// NewsAPI's ` - Outlet` title suffix, dropped only when it is the article's own source.
final class NewsAPIOutletSuffixTests: XCTestCase {
    func testTheOwnOutletIsDroppedAndEverythingElseKept() throws {
        // Given titles ending in their own outlet with each separator, and titles that only look so
        let headlines = try NewsAPIProvider.decode(FixturePaths.response("newsapi/title-outlet-suffixes.json"), now: fixtureNow)
        // Then only the own-outlet suffix is gone
        XCTAssertEqual(headlines.map(\.title), [
            "Markets rally after rate decision",
            "Storm warning for the north",            // case-insensitive, "|"
            "Chipmaker shows a 2 nm laptop part",     // en dash
            "Museum returns bronzes",                 // em dash
            "Opinion - Jane Doe",                     // only the last part
            "Review: Episode 3 - Part 2",             // not the source
            "Council votes on cycle lanes - Reuters", // another outlet than the source
            "- Reuters",                              // nothing would be left
            "No source name - Reuters",               // no source to compare with
        ])
        XCTAssertEqual(headlines.first?.source, "Reuters")
    }

    func testATitleThatIsOnlyTheOutletIsKept() {
        XCTAssertEqual(NewsAPIProvider.removingOwnOutlet(" - Reuters", source: "Reuters"), " - Reuters")
        XCTAssertEqual(NewsAPIProvider.removingOwnOutlet("Rates - Reuters", source: " reuters "), "Rates")
    }
}

/// A response longer than `page-size` is cut to it before the cache and the timeline see it.
final class PageSizeCutTests: XCTestCase {
    func testAPITubeSendingMoreThanPerPageIsCutToTheNewest() async throws {
        // Given a server that answers per_page=4 with its ten headlines
        let transport = FixtureTransport(routes: ["/v1/news/top-headlines": FixturePaths.response("apitube/top-headlines-fl.json")])
        let provider = APITubeProvider(options: .init(pageSize: 4), apiKey: "k", transport: transport)
        // When it is fetched
        let headlines = try await provider.fetchHeadlines(now: fixtureNow)
        // Then only the four newest remain
        XCTAssertEqual(headlines, Array(FixtureHeadlines.apitubeFL.prefix(4)))
    }

    func testNewsAPISendingMoreThanPageSizeIsCutBeforeTheCache() async throws {
        let dir = try makeTempDir(self)
        let transport = FixtureTransport(routes: ["/v2/top-headlines": FixturePaths.response("newsapi/top-headlines.json")])
        let cache = HeadlineCache(path: dir + "/headlines.json")
        let refresher = Refresher(provider: NewsAPIProvider(options: .init(pageSize: 3), apiKey: "k", transport: transport),
                                  cache: cache, statusStore: RefreshStatusStore(path: dir + "/status.json"))
        let result = await HeadlinesTimelineProvider(refresher: refresher, interval: 1800, rotate: 10, warn: { _ in })
            .timeline(now: fixtureNow, consecutiveFailures: 0)
        let all = try NewsAPIProvider.decode(FixturePaths.response("newsapi/top-headlines.json"), now: fixtureNow)
        XCTAssertEqual(all.count, 8)
        XCTAssertEqual(cache.load(now: fixtureNow, warn: { _ in })?.headlines, Array(all.prefix(3)))
        XCTAssertEqual(result.timeline.entries.first?.content.headlines, Array(all.prefix(3)))
        XCTAssertEqual(result.fetched, Array(all.prefix(3)))
    }
}
