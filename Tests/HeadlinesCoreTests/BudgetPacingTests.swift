import Foundation
import XCTest
import HeadlinesCore

/// An interval shorter than the budget allows: the scheduled reloads are paced to last the day,
/// on a manual clock (no real waiting).
final class BudgetPacingTests: XCTestCase {
    private var dir = TempDir()
    override func setUp() { dir = TempDir() }
    override func tearDown() { dir.remove() }

    private func start(_ script: FetchScript, interval: TimeInterval, budget: Int, clock: ManualClock) async -> EngineHarness {
        let provider = headlinesProvider(script, dir: dir, interval: interval, rotate: 0)
        return await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: budget, interval: interval)
    }

    func testTwentySecondsWithTheDefaultBudgetMakesAtMostTwoRequestsInTwoMinutesAndLastsTheDay() async {
        // Given interval 20 s and the default budget of 48, no cache
        let clock = ManualClock(monday)
        let script = FetchScript { _, _ in .success(headlines(3)) }
        let host = await start(script, interval: 20, budget: Config().dailyBudget, clock: clock)

        // When two minutes pass
        await host.run(until: monday.addingTimeInterval(120))

        // Then at most 2 requests went out, and the host said once that the budget paces them
        XCTAssertLessThanOrEqual(script.calls.count, 2, "\(offsets(script.calls, from: monday))")
        XCTAssertEqual(host.logs.filter { $0.1.contains("the budget paces the reloads") }.count, 1, "\(host.logs)")

        // When two days pass
        await host.run(until: monday.addingTimeInterval(2 * day))

        // Then no 24 hours hold more than 48, and the evening of each day still gets reloads
        XCTAssertLessThanOrEqual(mostInAnyWindow(script.calls), 48)
        XCTAssertTrue(script.calls.contains { $0 > monday.addingTimeInterval(23 * hour) && $0 <= monday.addingTimeInterval(day) },
                      "\(offsets(script.calls, from: monday))")
        XCTAssertTrue(script.calls.contains { $0 > monday.addingTimeInterval(day + 23 * hour) },
                      "\(offsets(script.calls, from: monday))")
        XCTAssertEqual(host.logs.filter { $0.1.contains("the budget paces the reloads") }.count, 1)
    }

    func testASmallBudgetIsSpreadEvenlyOverTheWindow() async {
        // Given interval 2 s and a budget of 5
        let clock = ManualClock(monday)
        let script = FetchScript { _, _ in .success(headlines(3)) }
        let host = await start(script, interval: 2, budget: 5, clock: clock)

        // When a day passes
        await host.run(until: monday.addingTimeInterval(day - 1))

        // Then the 5 reloads are 24 h / 5 apart, and the sixth comes as the first turns 24 h old
        let expected = (0..<5).map { Double($0) * day / 5 }
        XCTAssertEqual(offsets(script.calls, from: monday).count, 5)
        for (got, want) in zip(offsets(script.calls, from: monday), expected) { XCTAssertEqual(got, want, accuracy: 0.01) }
        await host.run(until: monday.addingTimeInterval(day + 1))
        XCTAssertEqual(script.calls.count, 6)
        XCTAssertLessThanOrEqual(mostInAnyWindow(script.calls), 5)
    }

    func testAnExplicitRefreshStillGoesOutWhileBudgetRemains() async {
        // Given a paced host (interval 20 s, budget 48) that reloaded at start
        let clock = ManualClock(monday)
        let script = FetchScript { _, _ in .success(headlines(3)) }
        let host = await start(script, interval: 20, budget: 48, clock: clock)
        XCTAssertEqual(script.calls.count, 1)

        // When the user asks for a refresh five minutes later
        await host.run(until: monday.addingTimeInterval(300))
        await host.explicitReload()

        // Then it goes out at once
        XCTAssertEqual(offsets(script.calls, from: monday), [0, 300])
    }

    func testWhatABurstLeavesIsSpreadUntilTheBurstAgesOut() async {
        // Given a paced host (interval 20 s, budget 48) whose user refreshed 40 times at 10 min
        let clock = ManualClock(monday)
        let script = FetchScript { _, _ in .success(headlines(3)) }
        let host = await start(script, interval: 20, budget: 48, clock: clock)
        await host.run(until: monday.addingTimeInterval(600))
        for _ in 0..<40 {
            await host.explicitReload()
            await host.run(until: clock.now.addingTimeInterval(1))
        }
        XCTAssertEqual(script.calls.count, 41)

        // When the rest of the day passes
        await host.run(until: monday.addingTimeInterval(day - 1))

        // Then the 7 left went out spread over it, the last in the evening, never 48 in 24 h
        let later = script.calls.filter { $0 > monday.addingTimeInterval(600 + 60) }
        XCTAssertEqual(later.count, 7, "\(offsets(later, from: monday))")
        XCTAssertGreaterThan(later.last ?? monday, monday.addingTimeInterval(20 * hour))
        XCTAssertLessThanOrEqual(mostInAnyWindow(script.calls), 48)
    }

    func testAnIntervalThatFitsTheBudgetIsNotPaced() {
        // Given the default budget of 48
        let budget = RefreshBudget(dailyLimit: 48)

        // Then 30 min (48 a day exactly) is not paced, 29 min is, and says why in one sentence
        XCTAssertNil(budget.pacingNote(interval: 1800))
        XCTAssertEqual(budget.pacingNote(interval: 20),
                       "interval 20s would spend the daily budget of 48 in 16m, so the budget paces the reloads to last the day (about one every 30m); an explicit refresh still goes out while budget remains.")
        XCTAssertTrue(budget.paces(interval: 1740))
    }

    func testTheHeadlinesRotateOnWhileThePacedReloadWaits() async {
        // Given a paced host (interval 20 s, budget 48) rotating 3 headlines every 5 s
        let clock = ManualClock(monday)
        let script = FetchScript { _, _ in .success(headlines(3)) }
        let provider = headlinesProvider(script, dir: dir, interval: 20, rotate: 5)
        let host = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: 20)

        // When ten minutes pass (the next reload is paced to 30 min)
        var shown: [Int] = []
        for second in stride(from: 600.0, to: 615, by: 5) {
            await host.run(until: monday.addingTimeInterval(second))
            shown.append(host.timeline.entry(at: clock.now)?.content.index ?? -1)
        }

        // Then the bar still turns every 5 s, in order, and no request went out
        XCTAssertEqual(Set(shown).count, 3, "\(shown)")
        XCTAssertEqual(shown[1], (shown[0] + 1) % 3, "\(shown)")
        XCTAssertEqual(script.calls.count, 1)
    }
}
