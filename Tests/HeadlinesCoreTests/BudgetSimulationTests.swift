import Foundation
import XCTest
import HeadlinesCore

/// A simulated host over days of manual-clock time: the daily budget, restarts and suspends.
final class BudgetSimulationTests: XCTestCase {
    private var dir = TempDir()
    override func setUp() { dir = TempDir() }
    override func tearDown() { dir.remove() }

    private let interval: TimeInterval = 30 * 60
    private let week = 7 * day

    private func succeeding() -> FetchScript { FetchScript { _, _ in .success(headlines(3)) } }

    /// The week without restarts: the first reload at start (no cache), then one every 30 min,
    /// each exactly 1800 s after the last. Boundary, stated precisely: the first reload is at
    /// 00:00:00 UTC on day 1, so UTC day d holds the reloads at 00:00, 00:30 ... 23:30 of that
    /// day, exactly 48, and 00:00 of day d+1 counts for day d+1. The sliding window is
    /// (t - 24 h, t]: the attempt exactly 24 h before t has left it, so the reload at 24:00 is
    /// allowed and every window holds exactly 48.
    private func runWeek(restartsAt restarts: [Date]) async -> [Date] {
        let clock = ManualClock(monday)
        let script = succeeding()
        let provider = headlinesProvider(script, dir: dir, interval: interval, rotate: 600)
        var host = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: interval)
        for restart in restarts {
            await host.run(until: restart)
            let before = script.calls
            host = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: interval)
            if let last = before.last, restart.timeIntervalSince(last) < interval {
                XCTAssertEqual(script.calls, before, "a restart \(restart.timeIntervalSince(last)) s after a reload reloaded again")
            }
        }
        await host.run(until: monday.addingTimeInterval(week - 1))
        return script.calls
    }

    func testAWeekAtHalfHourlyReloadsSpendsExactly48ADayAndNeverMoreIn24Hours() async {
        // Given a host at interval 30 min and a budget of 48, starting with no cache
        // When a week passes
        let attempts = await runWeek(restartsAt: [])

        // Then the reloads are exactly every 30 min, 48 in each UTC day, at most 48 in any 24 h
        XCTAssertEqual(offsets(attempts, from: monday), (0..<336).map { Double($0) * interval })
        let perDay = (0..<7).map { d in
            attempts.filter { $0 >= monday.addingTimeInterval(Double(d) * day) && $0 < monday.addingTimeInterval(Double(d + 1) * day) }.count
        }
        XCTAssertEqual(perDay, Array(repeating: 48, count: 7))
        XCTAssertEqual(mostInAnyWindow(attempts), 48)
    }

    func testAHundredRestartsInAWeekCostNoReloadAndKeepTheBudget() async {
        // Given the same week, with the process restarted 100 times at seeded random moments
        var rng = SplitMix64(seed: 2025)
        let restarts = (0..<100).map { _ in monday.addingTimeInterval(Double.random(in: 1..<(7 * day - 1), using: &rng)) }.sorted()

        // When the week passes
        let attempts = await runWeek(restartsAt: restarts)

        // Then the reloads are exactly those of the week without restarts
        XCTAssertEqual(offsets(attempts, from: monday), (0..<336).map { Double($0) * interval })
        XCTAssertLessThanOrEqual(mostInAnyWindow(attempts), 48)
    }

    func testARestartRightAfterAReloadDoesNotReloadAgain() async {
        // Given a host that reloaded at start, with the cache it wrote on disk
        let clock = ManualClock(monday)
        let script = succeeding()
        let provider = headlinesProvider(script, dir: dir, interval: interval, rotate: 0)
        _ = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: interval)
        XCTAssertEqual(script.calls, [monday])

        // When the process restarts one second later and runs for the rest of the interval
        clock.advance(by: 1)
        let host = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: interval)
        await host.run(until: monday.addingTimeInterval(interval - 1))

        // Then nothing was fetched again; the next reload is still due 30 min after the first
        XCTAssertEqual(script.calls, [monday])
        XCTAssertEqual(host.nextReload(now: clock.now), monday.addingTimeInterval(interval))
    }

    func testARestartAfterAReloadThatFoundNoHeadlinesKeepsToTheFailureBackOff() async {
        // Given a host whose start-up reload got an OK answer with no headlines (a failure since
        // it must not replace a good cache), so no cache was written
        let clock = ManualClock(monday)
        let script = FetchScript { _, _ in .success([]) }
        let provider = headlinesProvider(script, dir: dir, interval: interval, rotate: 0)
        _ = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: interval)
        XCTAssertNil(HeadlineCache(path: dir.cacheFile).load(now: monday, warn: { _ in }))

        // When the process restarts 30 s later and runs until just before the back-off ends
        clock.advance(by: 30)
        let host = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: interval)
        await host.run(until: monday.addingTimeInterval(Backoff.first - 1))

        // Then it waits out the same back-off a host that kept running would: no refetch yet
        XCTAssertEqual(script.calls, [monday], "a restart refetched before the failure back-off ended")
        XCTAssertEqual(host.nextReload(now: clock.now), monday.addingTimeInterval(Backoff.first))
    }

    func testASuspendOfTenHoursGivesOneReloadOnWakingNotACatchUpBurst() async {
        // Given a host that has run 2 h 10 min at interval 30 min
        let clock = ManualClock(monday)
        let script = succeeding()
        let provider = headlinesProvider(script, dir: dir, interval: interval, rotate: 600)
        let host = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: interval)
        let suspendAt = monday.addingTimeInterval(2 * hour + 10 * 60)
        await host.run(until: suspendAt)
        XCTAssertEqual(offsets(script.calls, from: monday), [0, 1800, 3600, 5400, 7200])

        // When the machine sleeps 10 h and the loop runs 29 min more
        host.suspend(for: 10 * hour)
        let resume = suspendAt.addingTimeInterval(10 * hour)
        XCTAssertLessThanOrEqual(host.nextWake, resume.addingTimeInterval(60))
        await host.run(until: resume.addingTimeInterval(29 * 60))

        // Then exactly one reload, within 60 s of the resume
        let after = script.calls.filter { $0 > suspendAt }
        XCTAssertEqual(after.count, 1, "reloads after resume at \(offsets(after, from: resume))")
        if let first = after.first {
            XCTAssertGreaterThanOrEqual(first, resume)
            XCTAssertLessThanOrEqual(first, resume.addingTimeInterval(60))
            // And the next one is a full interval later
            await host.run(until: first.addingTimeInterval(interval))
            XCTAssertEqual(script.calls.last, first.addingTimeInterval(interval))
        }
    }
}
