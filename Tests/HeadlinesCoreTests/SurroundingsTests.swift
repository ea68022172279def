import Foundation
import XCTest
import HeadlinesCore

/// Through the engine: a change of source reloads at once, a cache written by
/// another process is adopted with the back-off reset, new headlines reset the bar offset, mute
/// and unmute apply at once.
final class SurroundingsTests: XCTestCase {
    private var dir = TempDir()
    override func setUp() { dir = TempDir() }
    override func tearDown() { dir.remove() }

    private let interval: TimeInterval = 1800

    private func mixed(_ prefix: String = "h") -> [Headline] {
        ["a.example", "b.example", "a.example"].enumerated().map { i, source in
            Headline(id: "\(prefix)\(i)", title: "\(prefix) \(i)", url: URL(string: "https://\(source)/\(prefix)\(i)")!,
                     source: source, publishedAt: monday)
        }
    }

    private func shown(_ host: EngineHarness) -> [String] {
        host.lastPublished?.timeline.entry(at: host.clock.now)?.content.headlines.map(\.id) ?? []
    }

    func testAChangeOfSourceOnSIGHUPReloadsAtOnceWithinTheBudget() async {
        // Given a host that reloaded at start
        let clock = ManualClock(monday)
        let script = FetchScript { _, _ in .success(headlines(2)) }
        let provider = headlinesProvider(script, dir: dir, interval: interval, rotate: 0)
        let host = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 2, interval: interval)
        XCTAssertEqual(script.calls.count, 1)

        // When the config is re-read with the same source, nothing is fetched
        clock.advance(by: 60)
        await host.send(.configurationChanged(EngineHarness.configuration(provider, dailyBudget: 2, interval: interval, source: "source-a"), reason: "SIGHUP"))
        XCTAssertEqual(script.calls.count, 1)

        // When it is re-read with another feed, the reload is immediate
        await host.send(.configurationChanged(EngineHarness.configuration(provider, dailyBudget: 2, interval: interval, source: "source-b"), reason: "SIGHUP"))
        XCTAssertEqual(offsets(script.calls, from: monday), [0, 60])

        // And with the budget spent, another change is deferred, not sent
        clock.advance(by: 60)
        await host.send(.configurationChanged(EngineHarness.configuration(provider, dailyBudget: 2, interval: interval, source: "source-c"), reason: "SIGHUP"))
        XCTAssertEqual(script.calls.count, 2)
        XCTAssertEqual(host.lastPublished?.deferredBy, .dailyBudget)
    }

    func testARestartWithAnotherSourceReloadsAtOnceDespiteAFreshCache() async {
        let clock = ManualClock(monday)
        let script = FetchScript { _, _ in .success(headlines(2)) }
        let provider = headlinesProvider(script, dir: dir, interval: interval, rotate: 0)
        _ = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: interval)
        clock.advance(by: 10)
        _ = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: interval)
        XCTAssertEqual(script.calls.count, 1, "a restart with the same source reloaded")
        clock.advance(by: 10)
        _ = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: interval, source: "source-b")
        XCTAssertEqual(offsets(script.calls, from: monday), [0, 20])
    }

    func testACacheWrittenByAnotherProcessIsShownNotifiedAndResetsTheBackOff() async throws {
        // Given a host whose source has failed three times
        let clock = ManualClock(monday)
        let script = FetchScript { _, _ in .failure(.serverError(status: 503, code: nil, message: nil)) }
        let provider = headlinesProvider(script, dir: dir, interval: interval, rotate: 0)
        let host = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: interval)
        await host.run(until: monday.addingTimeInterval(200))
        XCTAssertEqual(host.ledger.consecutiveFailures, 3)

        // When `headlines fetch` in another process writes the cache
        let cache = CachedHeadlines(provider: "Scripted", fetchedAt: clock.now, headlines: mixed())
        try HeadlineCache(path: dir.cacheFile).store(cache)
        let published = host.published.count
        await host.send(.cacheChangedByAnotherProcess(cache))

        // Then the published timeline shows it, notifications get it, the back-off is reset and
        // the next reload is an interval away
        XCTAssertEqual(shown(host), ["h0", "h1", "h2"])
        XCTAssertEqual(host.lastPublished?.timeline.entry(at: clock.now)?.content.freshness, .fresh)
        XCTAssertGreaterThan(host.published.count, published)
        XCTAssertEqual(host.notified.last?.map(\.id), ["h0", "h1", "h2"])
        XCTAssertEqual(host.ledger.consecutiveFailures, 0)
        XCTAssertEqual(LedgerStore(path: dir.ledgerFile).load(now: clock.now, warn: { _ in }).consecutiveFailures, 0)
        XCTAssertEqual(host.nextReload(now: clock.now), clock.now.addingTimeInterval(interval))

        // And the same cache seen again (the host's own write, a second event) changes nothing
        let count = host.notified.count
        await host.send(.cacheChangedByAnotherProcess(cache))
        XCTAssertEqual(host.notified.count, count)
    }

    func testNewHeadlinesResetTheBarOffsetToTheNewestAndOldOnesDoNot() async {
        // Given a host showing cached headlines, turned 3 on by `headlines next`
        let clock = ManualClock(monday)
        try! HeadlineCache(path: dir.cacheFile).store(CachedHeadlines(provider: "Scripted", fetchedAt: monday, headlines: mixed()))
        let first = mixed()
        let script = FetchScript { _, n in .success(n == 0 ? first : Array(first.prefix(2)) + [Headline(id: "new", title: "New",
            url: URL(string: "https://a.example/new")!, source: "a.example", publishedAt: monday)]) }
        let provider = headlinesProvider(script, dir: dir, interval: interval, rotate: 0)
        let host = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: interval, offset: 3)

        // When the next reload brings the same headlines, the offset stays
        await host.run(until: monday.addingTimeInterval(interval + 1))
        XCTAssertEqual(script.calls.count, 1)
        XCTAssertEqual(host.offsetResets, 0)

        // When one after brings a new one, the offset goes back to the newest
        await host.run(until: monday.addingTimeInterval(2 * interval + 1))
        XCTAssertEqual(script.calls.count, 2)
        XCTAssertEqual(host.offsetResets, 1)
    }

    func testMuteAndUnmuteApplyAtOnce() async {
        // Given a host showing headlines from two sources
        let clock = ManualClock(monday)
        try! HeadlineCache(path: dir.cacheFile).store(CachedHeadlines(provider: "Scripted", fetchedAt: monday, headlines: mixed()))
        let script = FetchScript { _, _ in .success(headlines(1)) }
        let provider = headlinesProvider(script, dir: dir, interval: interval, rotate: 0)
        let host = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: interval)
        XCTAssertEqual(shown(host), ["h0", "h1", "h2"])

        // When a.example is muted, it disappears at once; unmuted, it is back at once
        clock.advance(by: 5)
        await host.send(.mutedChanged(MutedSources(["a.example"])))
        XCTAssertEqual(shown(host), ["h1"])
        clock.advance(by: 5)
        await host.send(.mutedChanged(MutedSources()))
        XCTAssertEqual(shown(host), ["h0", "h1", "h2"])
        XCTAssertEqual(script.calls, [], "muting reloaded")
    }
}
