import Foundation
import HeadlinesCore
import TestSupport
import XCTest

/// A feed or widget added to a config that already ran is silent on its first reload, as the
/// first run is; and a feed that gives its items new GUIDs repeats nothing.
final class NotificationNewOriginTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private let known = "https://known.example/feed.xml"
    private let added = "https://added.example/feed.xml"

    private func items(_ n: Int, prefix: String, feed: String? = nil, idPrefix: String = "") -> [Headline] {
        (1...n).map { i in
            Headline(id: "\(idPrefix)\(prefix)\(i)", title: "Title  \(prefix)\(i)", url: URL(string: "https://example.com/\(prefix)\(i)")!,
                     source: "example.com", publishedAt: now.addingTimeInterval(Double(i) * 60), feed: feed)
        }
    }

    private func plan(_ fetched: [Headline], _ seen: SeenSet, widget: String? = nil, minutes: Double = 0) -> NotificationPlanner.Plan {
        NotificationPlanner.plan(fetched: fetched, seen: seen, muted: MutedSources(), widget: widget, maxPerRefresh: 10,
                                 now: now.addingTimeInterval(minutes * 60))
    }

    func testANewlyAddedFeedIsSilentOnItsFirstReloadOnly() {
        // Given a config that ran with one feed
        let first = plan(items(3, prefix: "k", feed: known), SeenSet())
        // When a feed is added, and its reload brings its old items and one new item of the known feed
        let second = plan(items(4, prefix: "k", feed: known) + items(5, prefix: "a", feed: added), first.seen, minutes: 10)
        // Then only the known feed's new item is posted; the added feed's items are seen
        XCTAssertEqual(second.post.map(\.id), ["k4"])
        XCTAssertEqual(second.more, 0)
        XCTAssertTrue(second.seen.contains("a1"))
        // And from its second reload on, it is a feed like the others
        let third = plan(items(6, prefix: "a", feed: added), second.seen, minutes: 20)
        XCTAssertEqual(third.post.map(\.id), ["a6"])
    }

    func testASeenFileFromBeforeOriginsTakesEveryFeedAsKnown() {
        // Given a set written before feeds were kept (no origins)
        var old = SeenSet()
        old.insert("k1", at: now)
        XCTAssertNil(old.origins)
        // When the next reload brings a new item: it is posted, and the feed is known from then on
        let next = plan(items(2, prefix: "k", feed: known), old)
        XCTAssertEqual(next.post.map(\.id), ["k2"])
        XCTAssertNotNil(next.seen.origins?[known])
    }

    func testANewlyAddedWidgetIsSilentOnItsFirstReload() {
        // Given the shared seen set after the news widget ran
        let news = plan(items(2, prefix: "n"), SeenSet(), widget: "news")
        // When a tech widget is added, its first reload posts nothing, its second what is new
        let tech = plan(items(3, prefix: "t"), news.seen, widget: "tech", minutes: 10)
        XCTAssertEqual(tech.post, [])
        XCTAssertEqual(tech.more, 0)
        let again = plan(items(4, prefix: "t"), tech.seen, widget: "tech", minutes: 20)
        XCTAssertEqual(again.post.map(\.id), ["t4"])
        // And the news widget goes on as before
        XCTAssertEqual(plan(items(3, prefix: "n"), again.seen, widget: "news", minutes: 30).post.map(\.id), ["n3"])
    }

    func testNewGUIDsForTheSameTitlesAndLinksPostNothing() {
        // Given a feed seen once
        let first = plan(items(5, prefix: "g", feed: known), SeenSet())
        var second = plan(items(5, prefix: "g", feed: known), first.seen, minutes: 10)
        XCTAssertEqual(second.post, [])
        // When every GUID changes while titles and links stay (spacing, case, scheme and a trailing slash aside)
        let renamed = items(5, prefix: "g", feed: known, idPrefix: "urn:new:").map { headline -> Headline in
            var copy = headline
            copy.title = headline.title.uppercased().replacingOccurrences(of: "  ", with: " ")
            copy.url = URL(string: headline.url.absoluteString.replacingOccurrences(of: "https://", with: "http://") + "/")!
            return copy
        }
        second = plan(renamed, second.seen, minutes: 20)
        // Then nothing is posted
        XCTAssertEqual(second.post, [])
        XCTAssertEqual(second.more, 0)
        // But a new title at an old link is new
        var changed = renamed[0]
        changed.id = "urn:other"
        changed.title = "A correction"
        XCTAssertEqual(plan([changed], second.seen, minutes: 30).post.map(\.id), ["urn:other"])
    }
}

/// Several widgets share one seen.json, each host with its own `HeadlineNotifications`: what one
/// saves must not lose what another saved.
final class SharedSeenFileTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func headline(_ id: String) -> Headline {
        Headline(id: id, title: "Title \(id)", url: URL(string: "https://example.com/\(id)")!, source: "example.com",
                 publishedAt: now)
    }

    func testTwoWidgetsKeepEachOthersSeenHeadlinesAcrossARestart() throws {
        // Given the hosts of two widgets on one state folder
        let dir = try makeTempDir(self)
        let paths = XDGPaths(environment: ["XDG_STATE_HOME": dir, "XDG_RUNTIME_DIR": dir, "HOME": dir])
        func notifications(_ widget: String, _ notifier: RecordingNotifier) -> HeadlineNotifications {
            HeadlineNotifications(notifier: notifier, paths: paths.forWidget(widget), maxPerRefresh: 3, warn: { XCTFail($0) })
        }
        let news = notifications("news", RecordingNotifier()), tech = notifications("tech", RecordingNotifier())
        news.reloaded([headline("n1")], now: now)
        tech.reloaded([headline("t1")], now: now.addingTimeInterval(60))
        tech.reloaded([headline("t1"), headline("t2")], now: now.addingTimeInterval(120))
        // When news saves after tech did, and tech's host starts again
        news.reloaded([headline("n1"), headline("n2")], now: now.addingTimeInterval(180))
        let notifier = RecordingNotifier()
        notifications("tech", notifier).reloaded([headline("t1"), headline("t2"), headline("t3")], now: now.addingTimeInterval(240))
        // Then only tech's new headline is posted: it neither repeats t2 nor takes tech for a new widget
        XCTAssertEqual(notifier.posts.map(\.ids), [["t3"]])
    }
}
