import Foundation
import XCTest
import TestSupport
import HeadlinesCore

/// WidgetKit's reload policies, entries over time, and explicit reloads within the budget.
final class ReloadPolicyTests: XCTestCase {
    private var dir = TempDir()
    override func setUp() { dir = TempDir() }
    override func tearDown() { dir.remove() }

    private func entry(_ offset: TimeInterval, index: Int) -> TimelineEntry {
        TimelineEntry(date: monday.addingTimeInterval(offset),
                      content: WidgetContent(headlines: headlines(2), index: index, freshness: .fresh, fetchedAt: monday))
    }

    /// Three entries 10 s apart rotating through two headlines, given out of order.
    private var rotating: [TimelineEntry] { [entry(20, index: 0), entry(0, index: 0), entry(10, index: 1)] }

    func testEachPolicyRequestsItsReloadDateAsInWidgetKit() {
        let at = monday.addingTimeInterval(900)
        XCTAssertEqual(Timeline(entries: rotating, policy: .atEnd).requestedReloadDate, monday.addingTimeInterval(20))
        XCTAssertEqual(Timeline(entries: rotating, policy: .after(at)).requestedReloadDate, at)
        XCTAssertNil(Timeline(entries: rotating, policy: .never).requestedReloadDate)
        XCTAssertNil(Timeline(entries: [], policy: .atEnd).requestedReloadDate)
    }

    func testTheEntryOnDisplayIsTheLastWhoseDateHasCome() {
        // Given rotating entries at 0, 10 and 20 s
        let timeline = Timeline(entries: rotating, policy: .atEnd)
        XCTAssertEqual(timeline.entries.map(\.date), [0, 10, 20].map { monday.addingTimeInterval($0) })

        // Then each moment shows the right one, and the display next changes at the next date
        let at = { (s: TimeInterval) in timeline.entry(at: monday.addingTimeInterval(s)) }
        XCTAssertEqual(at(-5), rotating[1], "before the first entry, the first is shown")
        XCTAssertEqual(at(0), rotating[1])
        XCTAssertEqual(at(9.999), rotating[1])
        XCTAssertEqual(at(10), rotating[2])
        XCTAssertEqual(at(3600), rotating[0])
        XCTAssertEqual(at(10)?.content.current, headlines(2)[1])
        let next = { (s: TimeInterval) in timeline.nextEntryDate(after: monday.addingTimeInterval(s)) }
        XCTAssertEqual(next(-5), monday)
        XCTAssertEqual(next(0), monday.addingTimeInterval(10))
        XCTAssertEqual(next(15), monday.addingTimeInterval(20))
        XCTAssertNil(next(20))
        XCTAssertNil(Timeline(entries: [], policy: .never).entry(at: monday))
    }

    func testAHostWithANeverPolicyReloadsOnlyWhenAsked() async {
        // Given a host whose timelines say .never, after its start-up reload (no cache)
        let clock = ManualClock(monday)
        let provider = FakeTimelineProvider { _ in .never }
        let host = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 48, interval: 1800)
        XCTAssertEqual(provider.calls, [monday])

        // When three days pass
        await host.run(until: monday.addingTimeInterval(3 * day))

        // Then it never reloaded on its own
        XCTAssertEqual(provider.calls, [monday])
        XCTAssertNil(host.nextReload(now: clock.now))

        // When a reload is asked for
        await host.explicitReload()

        // Then it happens at once, and is counted
        XCTAssertEqual(provider.calls, [monday, clock.now])
        XCTAssertEqual(host.remaining, 47)
    }

    func testExplicitReloadsCountInTheBudgetAndAreDeferredWhenItIsSpent() async {
        // Given a budget of 3 and a .never host that reloaded at start
        let clock = ManualClock(monday)
        let provider = FakeTimelineProvider { _ in .never }
        let host = await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: 3, interval: 1800)

        // When reloads are asked for at 1 h and 2 h
        for _ in 0..<2 {
            await host.run(until: clock.now.addingTimeInterval(hour))
            await host.explicitReload()
        }
        XCTAssertEqual(offsets(provider.calls, from: monday), [0, hour, 2 * hour])

        // When one more is asked for at 3 h
        await host.run(until: monday.addingTimeInterval(3 * hour))
        XCTAssertEqual(ReloadScheduler(budget: RefreshBudget(dailyLimit: 3)).explicitReload(now: clock.now, ledger: host.ledger),
                       .deferred(until: monday.addingTimeInterval(day + 0.001)))
        await host.explicitReload()

        // Then it is deferred until the first attempt is 24 h old, and happens then, once
        XCTAssertEqual(provider.calls.count, 3)
        XCTAssertEqual(host.deferredExplicit, monday.addingTimeInterval(day + 0.001))
        await host.run(until: monday.addingTimeInterval(3 * day))
        XCTAssertEqual(provider.calls.count, 4)
        XCTAssertEqual(provider.calls.last?.timeIntervalSince(monday) ?? 0, day + 0.001, accuracy: 0.001)
        XCTAssertNil(host.deferredExplicit)
    }

    func testTheSchedulerPushesARequestPastTheBudgetAndARetryAfter() {
        // Given a ledger with 2 attempts, a budget of 2, and a server that said "not before 1 h"
        var ledger = RefreshLedger()
        ledger.recordAttempt(at: monday)
        ledger.recordAttempt(at: monday.addingTimeInterval(60))
        let scheduler = ReloadScheduler(budget: RefreshBudget(dailyLimit: 2))
        let now = monday.addingTimeInterval(120)

        // Then nothing is due without a request, and a request waits for the budget
        XCTAssertNil(scheduler.nextReload(now: now, ledger: ledger, requested: nil, interval: day))
        XCTAssertEqual(scheduler.nextReload(now: now, ledger: ledger, requested: now, interval: day),
                       monday.addingTimeInterval(day + 0.001))

        // And with a budget to spare, the Retry-After alone pushes it
        ledger.recordFailure(retryAfter: monday.addingTimeInterval(hour))
        let roomy = ReloadScheduler(budget: RefreshBudget(dailyLimit: 10))
        XCTAssertEqual(roomy.nextReload(now: now, ledger: ledger, requested: now, interval: day), monday.addingTimeInterval(hour))
        XCTAssertEqual(roomy.explicitReload(now: now, ledger: ledger), .deferred(until: monday.addingTimeInterval(hour)))
        XCTAssertEqual(roomy.explicitReload(now: monday.addingTimeInterval(hour), ledger: ledger), .now)
    }
}
