import Foundation
import XCTest
import TestSupport
import HeadlinesCore

/// The budget holds in real elapsed time whatever the wall clock does, and no
/// clock or server value can stop reloads for more than a day.
final class UntrustedClockTests: XCTestCase {
    private var dir = TempDir()
    override func setUp() { dir = TempDir() }
    override func tearDown() { dir.remove() }

    func testAClockTwoDaysAheadThenBackSpendsNoExtraRequests() async {
        // Given a budget of 3 and a host that only reloads when asked, which reloaded at start
        let clock = ManualClock(monday)
        let provider = FakeTimelineProvider { _ in .never }
        var host = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 3, interval: 1800)
        clock.advance(by: 1)
        await host.explicitReload()

        // When the wall clock jumps 2 days ahead, a refresh is asked, the clock comes back, the
        // host restarts, and refreshes are asked over and over within the same real second
        clock.stepWall(by: 2 * day)
        await host.explicitReload()
        clock.stepWall(by: -2 * day)
        host = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 3, interval: 1800)
        for _ in 0..<5 { await host.explicitReload() }

        // Then exactly 3 requests went out, and the next is deferred until the first is 24 real hours old
        XCTAssertEqual(provider.calls.count, 3)
        XCTAssertEqual(host.deferredExplicit?.timeIntervalSince(monday) ?? 0, day, accuracy: 0.01)
        XCTAssertEqual(host.lastPublished?.deferredBy, .dailyBudget)
        XCTAssertEqual(host.remaining, 0)
    }

    func testAClockSteppedBackThreeHoursUnderARunningHostKeepsReloading() async {
        // Given a host reloading every 30 min, running for an hour
        let clock = ManualClock(monday)
        let script = FetchScript { _, _ in .success(headlines(3)) }
        let provider = headlinesProvider(script, dir: dir, interval: 1800, rotate: 0)
        let host = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: 1800)
        await host.run(until: monday.addingTimeInterval(hour))
        XCTAssertEqual(script.calls.count, 3)

        // When the wall clock is set back 3 hours and one real hour passes
        clock.stepWall(by: -3 * hour)
        let stepped = clock.now
        await host.run(until: stepped.addingTimeInterval(hour + 1))

        // Then reloads went on every 30 real minutes, and an explicit refresh is not held back
        XCTAssertEqual(offsets(Array(script.calls.dropFirst(3)), from: stepped), [1800, 3600])
        await host.explicitReload()
        XCTAssertEqual(script.calls.count, 6)
        XCTAssertTrue(host.warnings.contains { $0.contains("moved 3h back") || $0.contains("back") }, "\(host.warnings)")
    }

    func testARestartAfterTheClockWasSetBackThreeHoursReloadsOnSchedule() async {
        // Given a host that reloaded at start, then the clock set back 3 hours and a restart
        let clock = ManualClock(monday)
        let script = FetchScript { _, _ in .success(headlines(3)) }
        let provider = headlinesProvider(script, dir: dir, interval: 1800, rotate: 0)
        _ = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: 1800)
        clock.advance(by: 600)
        clock.stepWall(by: -3 * hour)
        let host = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: 1800)

        // When 20 real minutes pass, the reload due 30 real minutes after the first happens
        await host.run(until: clock.now.addingTimeInterval(20 * 60 + 1))
        XCTAssertEqual(script.calls.count, 2, "the cache dated in the future put the reload off")
    }

    func testAnAttemptDatedInTheYear9999CountsAsNowWithOneWarningAndFreesWithin24Hours() async throws {
        // Given a ledger whose only attempt is dated 9999 (no monotonic reading), a budget of 1
        var ledger = RefreshLedger()
        ledger.attempts = [Date(timeIntervalSince1970: 253_370_764_800)]
        try LedgerStore(path: dir.ledgerFile).store(ledger)
        let clock = ManualClock(monday)
        let script = FetchScript { _, _ in .success(headlines(2)) }
        let provider = headlinesProvider(script, dir: dir, interval: 1800, rotate: 0)

        // When a host starts and a refresh is asked
        let host = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 1, interval: 1800)
        await host.explicitReload()

        // Then it is counted as made now: nothing is fetched, the refresh says until when
        XCTAssertEqual(script.calls, [])
        XCTAssertEqual(host.deferredExplicit?.timeIntervalSince(monday) ?? 0, day, accuracy: 0.01)

        // When 24 real hours pass
        await host.run(until: monday.addingTimeInterval(day + 60))

        // Then reloads resumed, and the future date was warned about once
        XCTAssertEqual(script.calls.count, 1)
        XCTAssertLessThanOrEqual(script.calls.first ?? .distantFuture, monday.addingTimeInterval(day + 1))
        XCTAssertEqual(host.warnings.filter { $0.contains("dated in the future") }.count, 1, "\(host.warnings)")
        XCTAssertLessThan(LedgerStore(path: dir.ledgerFile).load(now: clock.now, warn: { _ in }).attempts.last ?? .distantFuture,
                          monday.addingTimeInterval(2 * day), "the future date was written back")
    }

    func testAHugeRetryAfterIsCappedAt24Hours() async {
        // Given a server answering 429 with Retry-After: 999999999 once, then OK
        let clock = ManualClock(monday)
        let script = FetchScript { now, n in
            n == 0 ? .failure(.rateLimited(retryAfter: now.addingTimeInterval(999_999_999), code: nil, message: nil))
                   : .success(headlines(2))
        }
        let provider = headlinesProvider(script, dir: dir, interval: 1800, rotate: 0)
        let host = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: 1800)

        // Then the wait is 24 hours, said so, and an explicit refresh says until when and why
        XCTAssertEqual(host.ledger.retryNotBefore, monday.addingTimeInterval(day))
        XCTAssertTrue(host.warnings.contains { $0.contains("24 hours at most") })
        clock.advance(by: 60)
        await host.explicitReload()
        XCTAssertEqual(host.lastPublished?.deferredUntil, monday.addingTimeInterval(day))
        XCTAssertEqual(host.lastPublished?.deferredBy, .server)

        // When a day passes, the reload happens
        await host.run(until: monday.addingTimeInterval(day + 1))
        XCTAssertEqual(offsets(script.calls, from: monday), [0, day])
    }

    func testARetryAfterOnDiskFromAClockFarAheadIsCappedOnLoad() {
        var ledger = RefreshLedger()
        ledger.retryNotBefore = Date(timeIntervalSince1970: 253_370_764_800)
        let clock = ManualClock(monday)
        ledger.normalize(at: clock.time)
        XCTAssertEqual(ledger.retryNotBefore, monday.addingTimeInterval(day))
        XCTAssertTrue(allowed(at: clock.time.adding(day), &ledger, budget: 48))
    }

    func testAttemptsFromAnotherBootAreAgedByTheWallClock() {
        // Given an attempt an hour ago in a previous boot, and a budget of 1
        let clock = ManualClock(monday)
        var ledger = RefreshLedger()
        ledger.recordAttempt(at: clock.time)
        clock.reboot(after: hour)
        // Then it still counts, and frees 23 hours later
        XCTAssertFalse(allowed(at: clock.time, &ledger, budget: 1))
        XCTAssertTrue(allowed(at: clock.time.adding(23 * hour + 1), &ledger, budget: 1))
    }
}

/// An explicit reload's decision, as the engine takes it: the ledger normalized first.
final class ExplicitDecisionTests: XCTestCase {
    func testAForcedReloadSaysWhichLimitHoldsIt() {
        let clock = ManualClock(monday)
        var ledger = RefreshLedger()
        ledger.recordAttempt(at: clock.time)
        ledger.normalize(at: clock.time)
        XCTAssertEqual(ReloadScheduler(budget: RefreshBudget(dailyLimit: 1)).decide(now: clock.time.wall, ledger: ledger),
                       .deferred(until: monday.addingTimeInterval(day + 0.001), by: .dailyBudget))
        ledger.recordFailure(retryAfter: monday.addingTimeInterval(999_999_999), now: monday)
        ledger.normalize(at: clock.time)
        XCTAssertEqual(ReloadScheduler(budget: RefreshBudget(dailyLimit: 5)).decide(now: clock.time.wall, ledger: ledger),
                       .deferred(until: monday.addingTimeInterval(day), by: .server))
    }
}

/// Whether the budget and any Retry-After let a reload go out at `now`, the ledger normalized
/// first as the host does.
private func allowed(at now: HostTime, _ ledger: inout RefreshLedger, budget: Int) -> Bool {
    ledger.normalize(at: now)
    return ReloadScheduler(budget: RefreshBudget(dailyLimit: budget)).decide(now: now.wall, ledger: ledger) == .now
}
