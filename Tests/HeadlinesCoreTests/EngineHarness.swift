import Foundation
import XCTest
import TestSupport
import HeadlinesCore

/// The real `HostEngine` with its actions performed the way WidgetHost performs them, on a
/// manual clock: the ledger to a real `LedgerStore`, reloads through the real provider (taking
/// `reloadTakes` of simulated time), the one timer on GLib's monotonic clock. No host logic
/// lives here: only the driver's plumbing. Restarting = a new harness on the same folder/clock.
final class EngineHarness {
    let clock: ManualClock
    let provider: TimelineProvider
    let dir: TempDir
    var engine = HostEngine()
    var configuration: HostConfiguration
    var reloadTakes: TimeInterval = 0
    /// GLib monotonic reading at which the armed timer fires.
    private(set) var timerDue: TimeInterval?
    private(set) var published: [PublishedTimeline] = []
    private(set) var notified: [[Headline]] = []
    private(set) var offsetResets = 0
    private(set) var logs: [(HostAction.Level, String)] = []
    private(set) var savedLedgers = 0
    /// Fails a save when set (a read-only disk).
    var ledgerSaveFails = false
    /// The host's one store, which appends what each save adds.
    private var ledgerStore: LedgerStore
    private var reloadsAtThisInstant = (at: Date.distantPast, count: 0)

    static func start(clock: ManualClock, dir: TempDir, provider: TimelineProvider, dailyBudget: Int,
                      interval: TimeInterval, source: String = "source-a", muted: MutedSources = MutedSources(),
                      offset: Int = 0) async -> EngineHarness {
        let h = EngineHarness(clock: clock, dir: dir, provider: provider,
                              configuration: configuration(provider, dailyBudget: dailyBudget, interval: interval, source: source))
        let start = HostStart(hostPID: 42, ledger: LedgerStore(path: dir.ledgerFile).load(now: clock.now, warn: { _ in }),
                              cache: HeadlineCache(path: dir.cacheFile).load(now: clock.now, warn: { _ in }),
                              muted: muted, offset: offset)
        await h.send(.started(start, h.configuration))
        return h
    }

    static func configuration(_ provider: TimelineProvider, dailyBudget: Int, interval: TimeInterval, source: String) -> HostConfiguration {
        HostConfiguration(providerName: "Scripted", sourceIdentity: source, interval: interval, dailyBudget: dailyBudget,
                          layout: { provider.snapshotTimeline($0, reloadAt: $1) })
    }

    private init(clock: ManualClock, dir: TempDir, provider: TimelineProvider, configuration: HostConfiguration) {
        self.clock = clock
        self.dir = dir
        self.provider = provider
        self.configuration = configuration
        ledgerStore = LedgerStore(path: dir.ledgerFile)
    }

    var ledger: RefreshLedger { engine.ledger }
    var timeline: Timeline { engine.timeline }
    var deferredExplicit: Date? { engine.deferred?.until }
    var lastPublished: PublishedTimeline? { published.last }
    func nextReload(now: Date) -> Date? { engine.nextReload(now) }
    var remaining: Int { configuration.scheduler.budget.remaining(engine.ledger, now: clock.now) }
    var warnings: [String] { logs.filter { $0.0 == .warning }.map(\.1) }

    /// When the armed timer fires, in wall-clock time.
    var nextWake: Date { clock.now.addingTimeInterval((timerDue ?? .infinity) - clock.glib) }

    func send(_ event: HostEvent) async {
        var pending = engine.handle(event, at: clock.time)
        while !pending.isEmpty {
            let action = pending.removeFirst()
            if case let .startReload(failures, _) = action {
                let now = clock.now
                reloadsAtThisInstant = reloadsAtThisInstant.at == now ? (now, reloadsAtThisInstant.count + 1) : (now, 1)
                guard reloadsAtThisInstant.count <= 3 else {
                    XCTFail("the engine keeps reloading at \(ISO8601.format(now)) without time passing")
                    return
                }
                let result = await provider.timeline(now: now, consecutiveFailures: failures)
                clock.advance(by: reloadTakes)
                pending += engine.handle(.reloadFinished(result, requestsSent: 1), at: clock.time)
            } else {
                perform(action)
            }
        }
    }

    private func perform(_ action: HostAction) {
        switch action {
        case let .saveLedger(ledger):
            savedLedgers += 1
            // A store whose save failed knows nothing of its file any more, like a new one.
            if ledgerSaveFails { ledgerStore = LedgerStore(path: dir.ledgerFile) } else { try! ledgerStore.store(ledger) }
        case .startReload: break
        case let .publish(p): published.append(p)
        case .showEntry: break
        case let .notify(list, _): notified.append(list)
        case .resetBarOffset: offsetResets += 1
        case let .armTimer(at, seconds):
            XCTAssertGreaterThan(at, clock.now, "the host would arm a timer for the past and spin")
            timerDue = clock.glib + max(0.001, seconds)
        case let .log(level, line): logs.append((level, line))
        }
    }

    /// Lets the loop run: every timer that fires up to `end` (wall clock) fires, then the
    /// clocks read `end`.
    func run(until end: Date) async {
        while let due = timerDue, clock.now.addingTimeInterval(due - clock.glib) <= end {
            clock.advance(by: max(0, due - clock.glib))
            timerDue = nil
            await send(.timerFired)
        }
        if end > clock.now { clock.advance(by: end.timeIntervalSince(clock.now)) }
    }

    func explicitReload() async { await send(.refreshAsked(reason: "refresh requested")) }

    /// A suspend of `duration`: the armed timer fires as long after the resume as it had left.
    func suspend(for duration: TimeInterval) { clock.sleep(for: duration) }
}
