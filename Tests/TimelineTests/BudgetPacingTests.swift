import Foundation
import XCTest
import HeadlinesCore
import HeadlinesSources

/// An `interval` shorter than the budget allows: the budget paces the scheduled reloads over the
/// day instead of spending itself in minutes; explicit refreshes still go out while budget remains.
final class BudgetPacingTests: XCTestCase {
    private var dir = TempDir()
    override func setUp() { dir = TempDir() }
    override func tearDown() { dir.remove() }

    private func succeeding() -> FetchScript { FetchScript { _, _ in .success(headlines(3)) } }

    private func host(_ script: FetchScript, interval: TimeInterval = 20, budget: Int = 48, rotate: TimeInterval = 0,
                      clock: ManualClock) async -> EngineHarness {
        let provider = headlinesProvider(script, dir: dir, interval: interval, rotate: rotate)
        return await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: budget, interval: interval)
    }

    func testTwentySecondsWithTheDefaultBudgetMakesAtMostTwoRequestsInTheFirstTwoMinutes() async throws {
        // Given a host at interval 20s and the default budget of 48, starting with no cache
        let clock = ManualClock(monday)
        let script = succeeding()
        let host = await host(script, clock: clock)

        // When two minutes pass
        await host.run(until: monday.addingTimeInterval(120))

        // Then only the start-up reload went out, and the next is about half an hour after it
        XCTAssertLessThanOrEqual(script.calls.count, 2)
        XCTAssertEqual(offsets(script.calls, from: monday), [0])
        let next = try XCTUnwrap(host.nextReload(now: clock.now))
        XCTAssertEqual(next.timeIntervalSince(monday), day / 48, accuracy: 1)
    }

    func testAPacedDayIsSpreadOverTheWholeDayWithoutAFreeze() async {
        // Given the same host
        let clock = ManualClock(monday)
        let script = succeeding()
        let host = await host(script, clock: clock)

        // When two days pass
        await host.run(until: monday.addingTimeInterval(2 * day))

        // Then 48 reloads fall in each day, never more in any 24 hours, and every gap between two
        // reloads is the even pace of 30 minutes (within a minute): the list never freezes for hours
        let calls = script.calls
        XCTAssertEqual(calls.filter { $0 < monday.addingTimeInterval(day) }.count, 48)
        XCTAssertEqual(calls.filter { $0 >= monday.addingTimeInterval(day) && $0 < monday.addingTimeInterval(2 * day) }.count, 48)
        XCTAssertLessThanOrEqual(mostInAnyWindow(calls), 48)
        let gaps = zip(calls.dropFirst(), calls).map { $0.timeIntervalSince($1) }
        XCTAssertGreaterThanOrEqual(gaps.min() ?? 0, day / 48 - 1, "reloads closer than the even pace")
        XCTAssertLessThanOrEqual(gaps.max() ?? .infinity, day / 48 + 60, "a gap longer than the even pace: the list froze")
    }

    func testAnExplicitRefreshStillGoesOutWhileBudgetRemains() async {
        // Given a paced host one minute after its start-up reload
        let clock = ManualClock(monday)
        let script = succeeding()
        let host = await host(script, clock: clock)
        await host.run(until: monday.addingTimeInterval(60))

        // When a refresh is asked, twice
        await host.explicitReload()
        clock.advance(by: 5)
        await host.explicitReload()

        // Then both go out at once
        XCTAssertEqual(offsets(script.calls, from: monday), [0, 60, 65])
    }

    func testRefreshesSpentEarlyStretchTheRestOverWhatIsLeftOfTheDay() async throws {
        // Given a paced host whose user refreshed 23 times in its first hour
        let clock = ManualClock(monday)
        let script = succeeding()
        let host = await host(script, clock: clock)
        for _ in 1...23 {
            clock.advance(by: 150)
            await host.explicitReload()
        }
        let last = clock.now

        // When the next scheduled reload is planned
        let next = try XCTUnwrap(host.nextReload(now: clock.now))

        // Then the 24 reloads left fall evenly in the 23 hours left of the window, the next one at
        // its end (when the start-up reload turns 24 hours old): one every 55 minutes
        let windowLeft = monday.addingTimeInterval(day).timeIntervalSince(last)
        XCTAssertEqual(next.timeIntervalSince(last), windowLeft / 25, accuracy: 1)
        XCTAssertGreaterThan(next.timeIntervalSince(last), day / 48)
    }

    func testARestartDoesNotSkipThePace() async {
        // Given a paced host that reloaded at start
        let clock = ManualClock(monday)
        let script = succeeding()
        _ = await host(script, clock: clock)

        // When it restarts a minute later and runs ten minutes
        clock.advance(by: 60)
        let restarted = await host(script, clock: clock)
        await restarted.run(until: monday.addingTimeInterval(660))

        // Then no reload went out at the interval after the start
        XCTAssertEqual(offsets(script.calls, from: monday), [0])
    }

    func testTheLogSaysSoOnceAtStart() async {
        // Given a paced host
        let clock = ManualClock(monday)
        let script = succeeding()
        let host = await host(script, clock: clock)

        // When it runs three hours
        await host.run(until: monday.addingTimeInterval(3 * hour))

        // Then its log says once how the budget paces it, with the numbers
        let said = host.logs.map(\.1).filter { $0.contains("paces") }
        XCTAssertEqual(said, ["the budget paces reloads to one every 30m: interval 20s would spend 48 reloads in 16m"])
    }

    func testTheBarKeepsRotatingUntilThePacedReload() async throws {
        // Given a paced host rotating every 5 s through its headlines
        let clock = ManualClock(monday)
        let script = succeeding()
        let host = await host(script, rotate: 5, clock: clock)

        // When ten minutes pass (long after the 20 s interval, before the paced reload)
        await host.run(until: monday.addingTimeInterval(600))

        // Then the display still changes within 5 s
        let next = try XCTUnwrap(host.timeline.nextEntryDate(after: clock.now), "the timeline ended before the paced reload")
        XCTAssertLessThanOrEqual(next.timeIntervalSince(clock.now), 5)
    }

    func testAnIntervalTheBudgetCoversIsNotPaced() {
        // Given intervals that spend the budget in 24 hours or more
        // Then nothing is paced and nothing is said
        XCTAssertNil(BudgetPacing(interval: 1800, dailyLimit: 48).sentence)
        XCTAssertNil(BudgetPacing(interval: 60, dailyLimit: 1440).sentence)
        XCTAssertEqual(BudgetPacing(interval: 1800, dailyLimit: 48).earliestReload(ledgerWith([monday]), after: monday), monday)
        // and one second less is paced
        XCTAssertNotNil(BudgetPacing(interval: 1799, dailyLimit: 48).sentence)
    }

    func testALedgerOlderThanTheWindowIsNotHeldBack() {
        // Given a paced setting and a last attempt two days ago
        let pacing = BudgetPacing(interval: 20, dailyLimit: 48)
        let now = monday.addingTimeInterval(2 * day)
        // Then a reload may go out now
        XCTAssertEqual(pacing.earliestReload(ledgerWith([monday]), after: now), now)
    }

    private func ledgerWith(_ attempts: [Date]) -> RefreshLedger {
        var ledger = RefreshLedger()
        ledger.attempts = attempts
        return ledger
    }
}
