import Foundation
import HeadlinesCore
import XCTest

/// Which headlines become notifications (what each one says: NotificationCapabilityTests).
final class NotificationPlannerTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func items(_ n: Int, prefix: String = "h", source: String = "example.com") -> [Headline] {
        (1...n).map { i in
            Headline(id: "\(prefix)\(i)", title: "Title \(prefix)\(i)", url: URL(string: "https://example.com/\(prefix)\(i)")!,
                     source: source, publishedAt: now.addingTimeInterval(Double(i) * 60))
        }
    }

    func testTheFirstRunPostsOnlyTheNewestAndMarksTheRestSeen() {
        let fetched = items(10)
        let plan = NotificationPlanner.plan(fetched: fetched, seen: SeenSet(), muted: MutedSources(), maxPerRefresh: 3, now: now)
        XCTAssertEqual(plan.post.map(\.id), ["h10"])
        XCTAssertEqual(plan.more, 0)
        XCTAssertTrue(fetched.allSatisfy { plan.seen.contains($0.id) })
    }

    func testNewHeadlinesArePostedOldestFirstAndAFloodIsSummarised() {
        let first = NotificationPlanner.plan(fetched: items(10), seen: SeenSet(), muted: MutedSources(), maxPerRefresh: 3, now: now)
        let two = NotificationPlanner.plan(fetched: items(10) + items(2, prefix: "n"), seen: first.seen, muted: MutedSources(), maxPerRefresh: 3, now: now)
        XCTAssertEqual(two.post.map(\.id), ["n1", "n2"])
        XCTAssertEqual(two.more, 0)
        let flood = NotificationPlanner.plan(fetched: items(8, prefix: "f"), seen: two.seen, muted: MutedSources(), maxPerRefresh: 3, now: now)
        XCTAssertEqual(flood.post.map(\.id), ["f6", "f7", "f8"])
        XCTAssertEqual(flood.more, 5)
        let again = NotificationPlanner.plan(fetched: items(8, prefix: "f"), seen: flood.seen, muted: MutedSources(), maxPerRefresh: 3, now: now)
        XCTAssertEqual(again.post, [], "nothing is posted twice")
        XCTAssertEqual(again.more, 0)
    }

    func testPastTheLimitTheRestBecomeOneDigestPerSourceNewestSourceFirst() {
        let first = NotificationPlanner.plan(fetched: items(1, prefix: "old"), seen: SeenSet(), muted: MutedSources(), maxPerRefresh: 3, now: now)
        let flood = items(30, prefix: "b", source: "BBC News") + items(2, prefix: "r", source: "Reuters")
        let plan = NotificationPlanner.plan(fetched: flood, seen: first.seen, muted: MutedSources(), maxPerRefresh: 3, now: now)
        XCTAssertEqual(plan.post.map(\.id), ["b28", "b29", "b30"])
        XCTAssertEqual(plan.digests.map(\.source), ["BBC News", "Reuters"])
        XCTAssertEqual(plan.digests.map(\.count), [27, 2])
        XCTAssertEqual(plan.digests.map(\.newest.id), ["b27", "r2"])
        XCTAssertEqual(plan.more, 29)
    }

    func testADigestStillOnScreenAddsTheNextOneOfItsSource() {
        let older = SourceDigest.of(items(27, prefix: "b", source: "BBC News").reversed())[0]
        let later = SourceDigest.of(items(35, prefix: "b", source: "BBC News").suffix(5).reversed())[0]
        let sum = older.adding(later)
        XCTAssertEqual(sum.count, 32)
        XCTAssertEqual(sum.newest.id, "b35")
        XCTAssertEqual(later.adding(older).newest.id, "b35", "the newer title, whichever came last")
    }

    func testMutedSourcesAreNeverPostedButMarkedSeen() {
        var seen = SeenSet(); seen.insert("old", at: now)
        let muted = MutedSources(["Noisy.example"])
        let plan = NotificationPlanner.plan(fetched: items(2, source: "noisy.example") + items(1, prefix: "q"), seen: seen,
                                            muted: muted, maxPerRefresh: 3, now: now)
        XCTAssertEqual(plan.post.map(\.id), ["q1"])
        XCTAssertTrue(plan.seen.contains("h1") && plan.seen.contains("h2"))
    }

    func testTheSeenSetIsBoundedByCountAndAge() {
        var seen = SeenSet()
        for i in 0..<(SeenSet.capacity + 10) { seen.insert("id\(i)", at: now.addingTimeInterval(Double(i))) }
        seen.insert("ancient", at: now.addingTimeInterval(-SeenSet.maxAge - 1))
        seen.prune(now: now.addingTimeInterval(Double(SeenSet.capacity + 10)))
        XCTAssertEqual(seen.seen.count, SeenSet.capacity)
        XCTAssertFalse(seen.contains("ancient"))
        XCTAssertFalse(seen.contains("id0"), "the oldest go first")
        XCTAssertTrue(seen.contains("id\(SeenSet.capacity + 9)"))
    }

    func testTheHeadlinesOfTheReloadAtHandSurviveTheCountBound() {
        // Given a full seen set whose oldest entry is a headline the feed still sends
        var seen = SeenSet()
        seen.insert("still-fetched", at: now)
        for i in 0..<SeenSet.capacity { seen.insert("id\(i)", at: now.addingTimeInterval(3600 + Double(i))) }
        // When a reload within a day of its last mark brings it again with one new headline
        let later = now.addingTimeInterval(2 * 3600 + Double(SeenSet.capacity))
        let plan = NotificationPlanner.plan(fetched: items(1, prefix: "n") + [Headline(id: "still-fetched", title: "Still", url: URL(string: "https://example.com/still")!,
                                                                                   source: "example.com", publishedAt: now)], seen: seen,
                                            muted: MutedSources(), maxPerRefresh: 3, now: later)
        // Then the count bound drops an older entry that is no longer fetched, never it
        XCTAssertEqual(plan.seen.seen.count, SeenSet.capacity)
        XCTAssertTrue(plan.seen.contains("still-fetched"))
        XCTAssertTrue(plan.seen.contains("n1"))
        XCTAssertFalse(plan.seen.contains("id0"))
    }
}
