import Foundation
import XCTest
import HeadlinesCore
import TestSupport

/// The bar keeps rotating while a reload is in flight, and a slow reload's timeline starts when
/// its answer arrives, not when it was asked for.
final class RotationWhileReloadingTests: XCTestCase {
    private var dir = TempDir()
    override func setUp() { dir = TempDir() }
    override func tearDown() { dir.remove() }
    private let now = monday.addingTimeInterval(5 * hour)

    func testRotationGoesOnPastTheReloadDateByTheTail() async {
        // Given a provider rotating every 10 s, reloading every 60 s, with a 30 s tail
        let script = FetchScript { _, _ in .success(headlines(3)) }
        var provider = headlinesProvider(script, dir: dir, interval: 60, rotate: 10)
        provider.layout.rotationTail = 30

        // When it reloads
        let result = await provider.timeline(now: now, consecutiveFailures: 0)

        // Then entries run to reload + tail (90 s: nine entries) and the policy still says reload at 60 s
        XCTAssertEqual(result.timeline.entries.map { $0.date.timeIntervalSince(now) }, [0, 10, 20, 30, 40, 50, 60, 70, 80])
        XCTAssertEqual(result.timeline.policy, .after(now.addingTimeInterval(60)))
    }

    func testTheCachedSnapshotRotatesUntilTheFirstReload() {
        // Given a cache of three headlines
        try! HeadlineCache(path: dir.cacheFile).store(CachedHeadlines(provider: "Scripted", fetchedAt: monday, headlines: headlines(3)))
        let provider = headlinesProvider(FetchScript { _, _ in .success([]) }, dir: dir, interval: 60, rotate: 10)

        // When the host shows the snapshot until a reload 30 s away
        let timeline = provider.snapshotTimeline(provider.snapshot(now: now), reloadAt: now.addingTimeInterval(30))

        // Then it rotates through the cache every 10 s, as cached content
        XCTAssertEqual(timeline.entries.map(\.content.index), [0, 1, 2])
        XCTAssertEqual(Set(timeline.entries.map(\.content.freshness)), [.cached])
        XCTAssertEqual(timeline.policy, .after(now.addingTimeInterval(30)))
    }

    func testShiftingMovesEveryEntryAndTheReloadDate() {
        let content = WidgetContent(headlines: headlines(2), freshness: .fresh, fetchedAt: now)
        let timeline = Timeline(entries: [TimelineEntry(date: now, content: content),
                                          TimelineEntry(date: now.addingTimeInterval(10), content: content)],
                                policy: .after(now.addingTimeInterval(60)))
        let moved = timeline.shifted(by: 7)
        XCTAssertEqual(moved.entries.map(\.date), [now.addingTimeInterval(7), now.addingTimeInterval(17)])
        XCTAssertEqual(moved.policy, .after(now.addingTimeInterval(67)))
        XCTAssertEqual(Timeline(entries: [], policy: .never).shifted(by: 5).policy, .never)
    }
}
