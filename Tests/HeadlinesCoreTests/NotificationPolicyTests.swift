import Foundation
import HeadlinesCore
import XCTest

/// `[notify] policy` and `[source] feed-policies`: every new headline, only keyword matches, or
/// none, for the whole config, a widget, or one feed.
final class NotificationPolicyTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private let file = "/c/headlines.conf"
    private let quiet = "https://quiet.example/feed.xml"
    private let loud = "https://loud.example/feed.xml"

    private func headline(_ id: String, _ title: String, feed: String? = nil, minute: Double = 1) -> Headline {
        Headline(id: id, title: title, url: URL(string: "https://example.com/\(id)")!, source: "example.com",
                 publishedAt: now.addingTimeInterval(minute * 60), feed: feed)
    }

    /// A set that has seen the feeds of these tests, so none of them counts as newly added.
    private var seenBefore: SeenSet {
        var seen = SeenSet()
        seen.insert("old", at: now)
        seen.origins = [quiet: now, loud: now]
        return seen
    }

    private func posted(_ fetched: [Headline], _ alerts: KeywordAlerts) -> [String] {
        NotificationPlanner.plan(fetched: fetched, seen: seenBefore, muted: MutedSources(), alerts: alerts,
                                 maxPerRefresh: 10, now: now).post.map(\.id)
    }

    private var reload: [Headline] {
        [headline("a", "Budget vote", minute: 1), headline("b", "Rain again", minute: 2), headline("c", "Budget cut", minute: 3)]
    }

    func testNonePostsNothingAndMarksEverythingSeen() {
        let plan = NotificationPlanner.plan(fetched: reload, seen: seenBefore, muted: MutedSources(),
                                            alerts: KeywordAlerts(policy: NotifyPolicy.none), maxPerRefresh: 10, now: now)
        XCTAssertEqual(plan.post, [])
        XCTAssertEqual(plan.more, 0)
        XCTAssertTrue(reload.allSatisfy { plan.seen.contains($0.id) }, "switching to all later would bring them back")
    }

    func testAlertsPostsOnlyKeywordMatchesAndNothingWithoutKeywords() {
        let budget = KeywordMatcher(["budget"])
        XCTAssertEqual(posted(reload, KeywordAlerts(keywords: budget, policy: .alerts)), ["a", "c"])
        XCTAssertEqual(posted(reload, KeywordAlerts(policy: .alerts)), [], "alerts with no keywords lets nothing through")
    }

    func testUnsetPolicyKeepsWhatKeywordsDidAndAllPostsEveryHeadlineDespiteThem() {
        let budget = KeywordMatcher(["budget"])
        XCTAssertEqual(posted(reload, KeywordAlerts(keywords: budget)), ["a", "c"], "keywords alone still mean alerts")
        XCTAssertEqual(posted(reload, KeywordAlerts()), ["a", "b", "c"])
        XCTAssertEqual(posted(reload, KeywordAlerts(keywords: budget, policy: .all)), ["a", "b", "c"])
    }

    func testAFeedsOwnPolicyOverridesTheConfigs() {
        let fetched = [headline("q1", "Budget vote", feed: quiet, minute: 1), headline("q2", "Rain", feed: quiet, minute: 2),
                       headline("l1", "Rain", feed: loud, minute: 3), headline("x1", "Rain", minute: 4)]
        let alerts = KeywordAlerts(keywords: KeywordMatcher(["budget"]), policy: .all, feedPolicies: [quiet: .alerts, loud: .none])
        XCTAssertEqual(posted(fetched, alerts), ["q1", "x1"])
        let onlyQuiet = KeywordAlerts(policy: NotifyPolicy.none, feedPolicies: [quiet: .all])
        XCTAssertEqual(posted(fetched, onlyQuiet), ["q1", "q2"])
    }

    // MARK: - The config

    private func parse(_ groups: [String: [String: String]]) throws -> Config { try Config.parse(groups: groups, file: file) }

    func testTheKeysAreReadIntoTheAlertsAWidgetTakesItsOwn() throws {
        let config = try parse(["notify": ["policy": "Alerts", "keywords": "budget", "max-per-hour": "7"],
                                "source": ["feed-policies": "\(quiet) none; \(loud) all"],
                                "widget tech": ["policy": "none"]])
        XCTAssertEqual(config.notifyPolicy, .alerts)
        XCTAssertEqual(config.maxPerHour, 7)
        XCTAssertEqual(KeywordAlerts(config), KeywordAlerts(keywords: KeywordMatcher(["budget"]), policy: .alerts,
                                                            feedPolicies: [quiet: .none, loud: .all]))
        XCTAssertEqual(try config.widget(named: "tech", file: file).notifyPolicy, NotifyPolicy.none)
        XCTAssertNil(try parse([:]).notifyPolicy)
        XCTAssertEqual(try parse([:]).maxPerHour, 20)
    }

    func testBadValuesAreRefusedNamingTheKey() {
        let bad: [(String, String, String)] = [
            ("notify", "policy", "some"), ("notify", "max-per-hour", "0"), ("notify", "max-per-hour", "501"),
            ("source", "feed-policies", "\(quiet)"), ("source", "feed-policies", "\(quiet) loud"),
            ("source", "feed-policies", "\(quiet) all; \(quiet) none"), ("source", "feed-policies", "none \(quiet)"),
        ]
        for (group, key, value) in bad {
            XCTAssertThrowsError(try parse([group: [key: value]]), "\(key) = \(value)") { error in
                XCTAssertTrue("\(error)".contains(key), "\(error)")
            }
        }
    }
}
