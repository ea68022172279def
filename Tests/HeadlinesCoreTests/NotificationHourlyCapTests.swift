import Foundation
import HeadlinesCore
import TestSupport
import XCTest

/// `[notify] max-per-hour`: at most that many notifications in any hour, across reloads and
/// restarts (each digest counts as one); what comes past it is counted into the next summary,
/// never dropped.
final class NotificationHourlyCapTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func items(_ n: Int, prefix: String, at time: Date) -> [Headline] {
        (1...n).map { i in
            Headline(id: "\(prefix)\(i)", title: "Title \(prefix)\(i)", url: URL(string: "https://example.com/\(prefix)\(i)")!,
                     source: "example.com", publishedAt: time.addingTimeInterval(Double(i)))
        }
    }

    private var seenBefore: SeenSet { var s = SeenSet(); s.insert("old", at: start); return s }

    /// How many notifications a plan posts (each digest and the summary count as one).
    private func count(_ plan: NotificationPlanner.Plan) -> Int { plan.post.count + plan.digests.count + (plan.overCap > 0 ? 1 : 0) }

    func testPastTheCapHeadlinesAreHeldAndTheNextSummaryWithRoomCountsThem() {
        // Given a cap of 4 an hour and 3 per reload
        func plan(_ fetched: [Headline], _ seen: SeenSet, minutes: Double) -> NotificationPlanner.Plan {
            NotificationPlanner.plan(fetched: fetched, seen: seen, muted: MutedSources(), maxPerRefresh: 3, maxPerHour: 4,
                                     now: start.addingTimeInterval(minutes * 60))
        }
        // When a first reload brings 2 new: both are posted
        let one = plan(items(2, prefix: "a", at: start), seenBefore, minutes: 0)
        XCTAssertEqual(one.post.map(\.id), ["a1", "a2"])
        // Then a second brings 5: 3 and a digest would not fit in the room for 2, so the newest
        // one and a summary of the other 4
        let two = plan(items(5, prefix: "b", at: start), one.seen, minutes: 10)
        XCTAssertEqual(two.post.map(\.id), ["b5"])
        XCTAssertEqual(two.digests, [])
        XCTAssertEqual(two.overCap, 4)
        // A third within the hour brings 2 more: no room at all, so nothing is posted and both are held
        let three = plan(items(2, prefix: "c", at: start), two.seen, minutes: 20)
        XCTAssertEqual(count(three), 0)
        XCTAssertEqual(three.seen.held, 2)
        XCTAssertTrue(three.seen.contains("c1"), "held headlines are counted, not posted later one by one")
        // And once the hour since the first posts has passed, a reload with nothing new posts the summary of the 2
        let four = plan([], three.seen, minutes: 61)
        XCTAssertEqual(four.post, [])
        XCTAssertEqual(four.overCap, 2)
        XCTAssertEqual(four.seen.held, 0)
        // Never more than 4 in any hour
        XCTAssertEqual(count(one) + count(two) + count(three), 4)
    }

    func testEachDigestCountsAsOneAndThoseThatDoNotFitBecomeTheSummary() {
        // Given a reload that brings 4 of one source and 1 of another, 2 per reload
        let fetched = items(4, prefix: "a", at: start) + [Headline(id: "r1", title: "R", url: URL(string: "https://example.org/r1")!,
                                                                    source: "example.org", publishedAt: start)]
        func plan(maxPerHour: Int) -> NotificationPlanner.Plan {
            NotificationPlanner.plan(fetched: fetched, seen: seenBefore, muted: MutedSources(), maxPerRefresh: 2, maxPerHour: maxPerHour, now: start)
        }
        // When 5 an hour leave room for all: the newest 2 and one digest per source of the rest
        let roomy = plan(maxPerHour: 5)
        XCTAssertEqual(roomy.post.map(\.id), ["a3", "a4"])
        XCTAssertEqual(roomy.digests.map(\.count), [2, 1])
        XCTAssertEqual(roomy.overCap, 0)
        XCTAssertEqual(roomy.seen.postedTimes.count, 4)
        // Then with 3 an hour the 2 headlines fit but the 2 digests do not: one summary of the 3 instead
        let tight = plan(maxPerHour: 3)
        XCTAssertEqual(tight.post.map(\.id), ["a3", "a4"])
        XCTAssertEqual(tight.digests, [])
        XCTAssertEqual(tight.overCap, 3)
        XCTAssertEqual(count(tight), 3)
    }

    func testTheCountOfTheLastHourSurvivesARestart() throws {
        // Given a cap of 2 and a reload that used it
        let dir = try makeTempDir(self)
        let paths = XDGPaths(environment: ["XDG_STATE_HOME": dir, "XDG_RUNTIME_DIR": dir, "HOME": dir])
        let first = RecordingNotifier()
        let before = HeadlineNotifications(notifier: first, paths: paths, maxPerRefresh: 3, maxPerHour: 2, warn: { XCTFail($0) })
        before.reloaded([Headline(id: "old", title: "Old", url: URL(string: "https://example.com/old")!, source: "example.com",
                                  publishedAt: start)], now: start)
        before.reloaded(items(1, prefix: "a", at: start), now: start.addingTimeInterval(60))
        XCTAssertEqual(first.posts.map(\.ids), [["old"], ["a1"]])

        // When the host starts again and a reload brings 2 more within the hour
        let second = RecordingNotifier()
        let after = HeadlineNotifications(notifier: second, paths: paths, maxPerRefresh: 3, maxPerHour: 2, warn: { XCTFail($0) })
        after.reloaded(items(2, prefix: "b", at: start), now: start.addingTimeInterval(120))

        // Then nothing is posted, and the file holds both as held for the next summary
        XCTAssertEqual(second.posts, [])
        let stored = try XCTUnwrap(JSONStateFile(seenSetAt: paths.seenFile).load(now: start, warn: { XCTFail($0) }))
        XCTAssertEqual(stored.held, 2)
        after.reloaded(items(2, prefix: "b", at: start), now: start.addingTimeInterval(3700))
        XCTAssertEqual(second.posts, [])
        XCTAssertEqual(second.heldPosts, [HeldHeadlines(count: 2, reason: .hourlyCap)])
    }

    func testASeenFileFromBeforeTheCapStillLoads() throws {
        let old = Data(#"{"seen":{"a":"2027-01-15T08:00:00Z"}}"#.utf8)
        let set = try StateJSONDecoder.headlines().decode(SeenSet.self, from: old)
        XCTAssertTrue(set.contains("a"))
        XCTAssertEqual(set.held, 0)
        XCTAssertEqual(set.postedTimes, [])
        XCTAssertNil(set.origins)
    }
}
