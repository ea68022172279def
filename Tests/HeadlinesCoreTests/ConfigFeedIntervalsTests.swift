import Foundation
import XCTest
@testable import HeadlinesCore
@testable import HeadlinesSources

/// `[source] feed-intervals`: a feed URL, then its own interval, for each feed that has one.
final class ConfigFeedIntervalsTests: XCTestCase {
    private func intervals(_ value: String) throws -> [String: TimeInterval] {
        try Config.parse(groups: ["source": ["feed-intervals": value]], file: "/c/headlines.conf").feedIntervals
    }

    func testEachURLTakesTheDurationAfterIt() throws {
        XCTAssertEqual(try intervals("https://a.example/feed 2h; https://b.example/rss?x=1,2 30m"),
                       ["https://a.example/feed": 7200, "https://b.example/rss?x=1,2": 1800])
        XCTAssertEqual(try intervals("https://a.example/feed 90"), ["https://a.example/feed": 90])
        XCTAssertEqual(try intervals(""), [:])
    }

    func testAnythingElseIsRefusedNamingTheKey() {
        for bad in ["https://a.example/feed", "2h https://a.example/feed", "https://a.example/feed 2d",
                    "https://a.example/feed 0", "https://a.example/feed 1h; https://a.example/feed 2h", "a.example/feed 1h"] {
            XCTAssertThrowsError(try intervals(bad), bad) { error in
                XCTAssertTrue("\(error)".contains("feed-intervals"), "\(error)")
            }
        }
    }

    func testAWidgetTakesItsOwn() throws {
        let config = try Config.parse(groups: ["source": ["provider": "feeds"],
                                               "widget tech": ["feed-intervals": "https://t.example/feed 1h"]], file: "/c/headlines.conf")
        XCTAssertEqual(try config.widget(named: "tech", file: "/c/headlines.conf").feedIntervals, ["https://t.example/feed": 3600])
    }

    func testTheFeedProviderIsGivenThem() throws {
        let config = try Config.parse(groups: ["source": ["provider": "feeds", "feeds": "https://a.example/feed",
                                                          "feed-intervals": "https://a.example/feed 2h"]], file: "/c/headlines.conf")
        let provider = ProviderFactory.make(config: config, apiKey: nil, transport: FixtureTransport(routes: [:]),
                                            feedStore: FeedStateStore(path: "/nonexistent/feeds.json"))
        XCTAssertEqual((provider as? FeedProvider)?.intervals, ["https://a.example/feed": 7200])
    }
}
