import Foundation
import XCTest
import TestSupport
@testable import HeadlinesCore
@testable import HeadlinesSources

/// An OK answer with zero usable headlines is a failure: the good cache stays, marked stale, and
/// the sentence names the setting to check.
final class EmptyResponseTests: XCTestCase {
    private var dir = ""
    private var cache: HeadlineCache { HeadlineCache(path: dir + "/cache/headlines.json") }
    private var statusStore: RefreshStatusStore { RefreshStatusStore(path: dir + "/state/status.json") }
    private let good = CachedHeadlines(provider: "NewsAPI", fetchedAt: date("2026-11-29T23:00:00Z"),
                                       headlines: Array(FixtureHeadlines.apitubeFL.prefix(3)))

    override func setUpWithError() throws { dir = try makeTempDir(self) }

    private func providers() -> [(HeadlineProvider, String)] {
        let apitube = FixtureTransport(routes: ["/v1/news/top-headlines": FixturePaths.response("apitube/top-headlines-empty.json")])
        let newsapi = FixtureTransport(routes: ["/v2/top-headlines": FixturePaths.response("newsapi/top-headlines-empty.json")])
        let removed = FixtureTransport(routes: ["/v2/top-headlines": FixturePaths.response("newsapi/top-headlines-all-removed.json")])
        let json = FixtureTransport(routes: ["/r/news.json": FixturePaths.response("json/empty-list.json")])
        let feed = FixtureTransport(routes: ["/feed.xml": HTTPResponse(status: 200, headers: ["Content-Type": "application/rss+xml"],
                                                                         body: FixturePaths.data("feeds/rss20-no-items.xml"))])
        return [
            (APITubeProvider(options: .init(), apiKey: "k", transport: apitube),
             "APITube returned no headlines: check [source] language and country."),
            (NewsAPIProvider(options: .init(), apiKey: "k", transport: newsapi),
             "NewsAPI returned no headlines: check [source] country, category and query."),
            (NewsAPIProvider(options: .init(), apiKey: "k", transport: removed),
             "NewsAPI returned no headlines: check [source] country, category and query."),
            (JSONAPIProvider(url: url("https://www.reddit.com/r/news.json"),
                             paths: .init(items: "data.children", title: "data.title", link: "data.url"), transport: json),
             "The JSON API at www.reddit.com returned no headlines: check [source] items-path, title-path and link-path."),
            (FeedProvider(feeds: [url("https://news.example.com/feed.xml")],
                          store: FeedStateStore(path: dir + "/cache/feeds.json"), transport: feed),
             "The feed https://news.example.com/feed.xml returned no headlines: check [source] feeds."),
        ]
    }

    func testAnOKAnswerWithNoHeadlinesIsAFailureThatKeepsTheCache() async throws {
        for (provider, sentence) in providers() {
            // Given a good cache from an earlier refresh
            try cache.store(good)
            // When the provider answers OK with nothing usable
            let result = await Refresher(provider: provider, cache: cache, statusStore: statusStore)
                .refresh(now: fixtureNow, warn: { XCTFail("unexpected warning: \($0)") })
            // Then it is a failure with one sentence naming the setting, and the cache is untouched
            guard case let .failure(failure) = result else { XCTFail("\(provider.displayName): expected a failure"); continue }
            XCTAssertEqual(failure.message, sentence)
            XCTAssertEqual(cache.load(now: fixtureNow, warn: { _ in }), good, provider.displayName)
            XCTAssertEqual(statusStore.load(now: fixtureNow, warn: { _ in }).lastFailure?.message, sentence)
        }
    }

    func testTheTimelineShowsTheCachedListAsStaleWithTheSentence() async throws {
        try cache.store(good)
        let transport = FixtureTransport(routes: ["/v2/top-headlines": FixturePaths.response("newsapi/top-headlines-empty.json")])
        let refresher = Refresher(provider: NewsAPIProvider(options: .init(), apiKey: "k", transport: transport),
                                  cache: cache, statusStore: statusStore)
        let result = await HeadlinesTimelineProvider(refresher: refresher, interval: 1800, rotate: 0, warn: { _ in })
            .timeline(now: fixtureNow, consecutiveFailures: 0)
        let content = try XCTUnwrap(result.timeline.entries.first?.content)
        XCTAssertEqual(content.freshness, .stale)
        XCTAssertEqual(content.headlines, good.headlines)
        XCTAssertEqual(content.error, "NewsAPI returned no headlines: check [source] country, category and query.")
        XCTAssertNil(result.fetched, "nothing new to notify")
    }
}
