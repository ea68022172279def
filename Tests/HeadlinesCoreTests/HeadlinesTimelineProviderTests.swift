import Foundation
import XCTest
import TestSupport
import HeadlinesCore

/// The headlines widget's answers to WidgetKit's three questions.
final class HeadlinesTimelineProviderTests: XCTestCase {
    private var dir = TempDir()
    override func setUp() { dir = TempDir() }
    override func tearDown() { dir.remove() }

    private let now = monday.addingTimeInterval(5 * hour)
    private let serverError = NewsError.serverError(status: 503, code: nil, message: nil)

    private func storeCache(_ items: [Headline], fetchedAt: Date) {
        try! HeadlineCache(path: dir.cacheFile).store(CachedHeadlines(provider: "Scripted", fetchedAt: fetchedAt, headlines: items))
    }

    private func entries(_ content: WidgetContent, every step: TimeInterval, count: Int) -> [TimelineEntry] {
        (0..<count).map { i in
            var c = content
            c.index = i % content.headlines.count
            return TimelineEntry(date: now.addingTimeInterval(Double(i) * step), content: c)
        }
    }

    func testThePlaceholderDoesNoIO() {
        // Given a provider over a source and a cache on disk
        storeCache(headlines(3), fetchedAt: monday)
        let script = FetchScript { _, _ in .success(headlines(3)) }
        let provider = headlinesProvider(script, dir: dir, interval: 60, rotate: 10)

        // When it is asked for a placeholder
        let entry = provider.placeholder()

        // Then it shows sample text, made up without fetching or reading the cache
        XCTAssertEqual(script.calls, [])
        XCTAssertEqual(entry.content.freshness, .placeholder)
        XCTAssertNil(entry.content.fetchedAt)
        XCTAssertEqual(entry.content.headlines.count, 1)
    }

    func testTheSnapshotShowsTheCacheOrNothing() {
        let script = FetchScript { _, _ in .success(headlines(3)) }
        let provider = headlinesProvider(script, dir: dir, interval: 60, rotate: 10)

        // Given no cache, then the snapshot is empty
        XCTAssertEqual(provider.snapshot(now: now),
                       TimelineEntry(date: now, content: WidgetContent(headlines: [], freshness: .empty, fetchedAt: nil)))

        // Given a cache, then the snapshot shows it, without fetching
        storeCache(headlines(3), fetchedAt: monday)
        XCTAssertEqual(provider.snapshot(now: now),
                       TimelineEntry(date: now, content: WidgetContent(headlines: headlines(3), freshness: .cached, fetchedAt: monday)))
        XCTAssertEqual(script.calls, [])
    }

    func testASuccessfulTimelineRotatesEvery10SecondsAndAsksAgainAfterTheInterval() async {
        // Given a source with 3 headlines, rotate 10 s, interval 60 s
        let script = FetchScript { _, _ in .success(headlines(3)) }
        let provider = headlinesProvider(script, dir: dir, interval: 60, rotate: 10)

        // When the timeline is asked for
        let result = await provider.timeline(now: now, consecutiveFailures: 2)

        // Then entries every 10 s cycle 0, 1, 2, 0, 1, 2; reload after 60 s; all fresh
        let content = WidgetContent(headlines: headlines(3), freshness: .fresh, fetchedAt: now)
        XCTAssertEqual(result.timeline, Timeline(entries: entries(content, every: 10, count: 6), policy: .after(now.addingTimeInterval(60))))
        XCTAssertEqual(result.timeline.entries.map(\.content.index), [0, 1, 2, 0, 1, 2])
        XCTAssertNil(result.failure)
        XCTAssertEqual(result.fetched, headlines(3))
        XCTAssertEqual(script.calls, [now])
        XCTAssertEqual(HeadlineCache(path: dir.cacheFile).load(now: now, warn: { _ in })?.fetchedAt, now)
    }

    func testAFailedTimelineShowsTheCacheAsStaleAndRetriesAfterTheBackOff() async throws {
        // Given a cache of 2 headlines and a source failing with a server error, after 2 failures
        storeCache(headlines(2), fetchedAt: monday)
        let cacheBytes = try Data(contentsOf: URL(fileURLWithPath: dir.cacheFile))
        let serverError = self.serverError
        let script = FetchScript { _, _ in .failure(serverError) }
        let provider = headlinesProvider(script, dir: dir, interval: 3600, rotate: 10)

        // When the timeline is asked for
        let result = await provider.timeline(now: now, consecutiveFailures: 2)

        // Then the cached headlines rotate as stale with the error sentence until the third back-off
        let sentence = serverError.message(provider: "Scripted")
        let delay = Backoff.delay(afterFailures: 3, interval: 3600)
        XCTAssertEqual(delay, 240)
        let content = WidgetContent(headlines: headlines(2), freshness: .stale, fetchedAt: monday, error: sentence)
        XCTAssertEqual(result.timeline, Timeline(entries: entries(content, every: 10, count: 24), policy: .after(now.addingTimeInterval(delay))))
        XCTAssertEqual(result.failure?.error, serverError)
        XCTAssertEqual(result.failure?.message, sentence)
        XCTAssertNil(result.fetched)
        // And the cache is left exactly as it was
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir.cacheFile)), cacheBytes)
    }

    func testAFailureWithNoCacheIsEmpty() async {
        let serverError = self.serverError
        let provider = headlinesProvider(FetchScript { _, _ in .failure(serverError) }, dir: dir, interval: 3600, rotate: 10)
        let result = await provider.timeline(now: now, consecutiveFailures: 0)
        let content = WidgetContent(headlines: [], freshness: .empty, fetchedAt: nil, error: serverError.message(provider: "Scripted"))
        XCTAssertEqual(result.timeline, Timeline(entries: [TimelineEntry(date: now, content: content)], policy: .after(now.addingTimeInterval(60))))
    }

    func testNoRotationGivesOneEntry() async {
        // Given rotate 0
        let provider = headlinesProvider(FetchScript { _, _ in .success(headlines(3)) }, dir: dir, interval: 60, rotate: 0)

        // When the timeline is asked for
        let result = await provider.timeline(now: now, consecutiveFailures: 0)

        // Then one entry showing the first headline until the reload
        let content = WidgetContent(headlines: headlines(3), freshness: .fresh, fetchedAt: now)
        XCTAssertEqual(result.timeline, Timeline(entries: [TimelineEntry(date: now, content: content)], policy: .after(now.addingTimeInterval(60))))
    }

    func testTheBackOffDoublesFromAMinuteAndStopsAtTheInterval() {
        XCTAssertEqual((0...7).map { Backoff.delay(afterFailures: $0, interval: 1800) }, [1800, 60, 120, 240, 480, 960, 1800, 1800])
        XCTAssertEqual(Backoff.delay(afterFailures: 1000, interval: 1800), 1800)
    }
}
