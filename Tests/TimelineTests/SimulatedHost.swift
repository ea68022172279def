import Foundation
import XCTest
import HeadlinesCore

/// WidgetHost's wake-up loop (Sources/HeadlinesDesktop/Loop/WidgetHost.swift) on a manual clock:
/// `becomeHost`, `wake`, `reload` and `explicitReload` mirrored line for line through the same
/// `HostPlanner` and `BudgetedReloader`, with the ledger in a real `LedgerStore` on disk. GLib's one
/// timer becomes `nextWake`; a reload takes no simulated time. Restarting = dropping this value and
/// starting a new one on the same folder and clock, as a new process would.
final class SimulatedHost {
    let clock: ManualClock
    let provider: TimelineProvider
    let interval: TimeInterval
    let reloader: BudgetedReloader
    /// WidgetHost.wallClockCheck.
    let wallClockCheck: TimeInterval = 60
    private(set) var timeline: Timeline
    /// When the armed timer fires, in wall-clock time.
    private(set) var nextWake: Date
    private(set) var deferredExplicit: Date?
    /// Reloads started without the clock moving, to stop a loop that would spin the real host.
    private var reloadsAtThisInstant = (at: Date.distantPast, count: 0)

    /// `WidgetHost.init` + `becomeHost`: show the snapshot, reload when the cache is due.
    static func start(clock: ManualClock, dir: TempDir, provider: TimelineProvider, dailyBudget: Int,
                      interval: TimeInterval) async -> SimulatedHost {
        let host = SimulatedHost(clock: clock, dir: dir, provider: provider, dailyBudget: dailyBudget, interval: interval)
        await host.becomeHost()
        return host
    }

    private init(clock: ManualClock, dir: TempDir, provider: TimelineProvider, dailyBudget: Int, interval: TimeInterval) {
        self.clock = clock
        self.provider = provider
        self.interval = interval
        self.reloader = BudgetedReloader(provider: provider,
                                         scheduler: ReloadScheduler(budget: RefreshBudget(dailyLimit: dailyBudget)),
                                         ledgerStore: LedgerStore(path: dir.ledgerFile), now: clock.now, warn: { _ in })
        self.timeline = Timeline(entries: [provider.placeholder()], policy: .never)
        self.nextWake = clock.now
    }

    private func becomeHost() async {
        let now = clock.now
        let snapshot = provider.snapshot(now: now)
        let due = HostPlanner.startupReloadDate(now: now, ledger: reloader.ledger,
                                                cacheFetchedAt: snapshot.content.fetchedAt, interval: interval)
        timeline = Timeline(entries: [snapshot], policy: .after(due))
        await wake()
    }

    /// `WidgetHost.wake`: act on whatever is due, then arm the one timer.
    func wake() async {
        let now = clock.now
        let plan = HostPlanner.plan(now: now, timeline: timeline, nextReload: nextReload(now: now),
                                    reloading: false, wallClockCheck: wallClockCheck)
        if plan.reloadNow {
            await reload()
        } else {
            XCTAssertGreaterThan(plan.wakeAt, now, "the host would arm a timer for the past and spin")
            nextWake = max(plan.wakeAt, now.addingTimeInterval(0.001))
        }
    }

    /// `WidgetHost.nextReload`: the timeline's wish, or a deferred explicit request if sooner.
    func nextReload(now: Date) -> Date? {
        let requested = [timeline.requestedReloadDate, deferredExplicit].compactMap { $0 }.min()
        return reloader.nextReload(now: now, requested: requested)
    }

    /// `WidgetHost.reload`.
    private func reload() async {
        let now = clock.now
        reloadsAtThisInstant = reloadsAtThisInstant.at == now ? (now, reloadsAtThisInstant.count + 1) : (now, 1)
        guard reloadsAtThisInstant.count <= 3 else {
            XCTFail("the host keeps reloading at \(ISO8601.format(now)) without time passing")
            nextWake = now.addingTimeInterval(wallClockCheck)
            return
        }
        deferredExplicit = nil
        if let result = await reloader.reload(now: now) {
            timeline = result.timeline
        }
        await wake()
    }

    /// `WidgetHost.explicitReload` (`headlines refresh`, SIGUSR1): now if allowed, else deferred.
    func explicitReload() async {
        let now = clock.now
        reloader.refreshLedger(now: now)
        switch reloader.explicitDecision(now: now) {
        case .now:
            await reload()
        case let .deferred(until):
            deferredExplicit = until
            await wake()
        }
    }

    /// Lets the loop run: every timer that fires up to `end` fires, then the clock reads `end`.
    func run(until end: Date) async {
        while nextWake <= end {
            clock.now = nextWake
            await wake()
        }
        clock.now = max(clock.now, end)
    }

    /// A suspend of `duration` starting now: wall time jumps, GLib's monotonic timer does not
    /// move, so the armed timer fires as long after the resume as it had left before the suspend.
    func suspend(for duration: TimeInterval) {
        let left = nextWake.timeIntervalSince(clock.now)
        clock.advance(by: duration)
        nextWake = clock.now.addingTimeInterval(left)
    }
}
