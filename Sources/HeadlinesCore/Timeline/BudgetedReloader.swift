import FoundationEssentials
import Synchronization

/// Performs network reloads within the daily budget for one-shot commands: every attempt is
/// written to the ledger before the request goes out, so a crash mid-request still counts it.
/// The host does not use this (its `HostEngine` owns its ledger); only one process reloads at a
/// time (the host lock), and callers hold it. The ledger copy in memory lives behind a mutex,
/// so a read-only or full disk still cannot make the budget forget attempts while it lives.
public final class BudgetedReloader: Sendable {
    public let provider: TimelineProvider
    public let scheduler: ReloadScheduler
    public let ledgerStore: LedgerStore
    /// Key-bearing requests the transport really sent (redirect hops included), if it counts.
    private let tally: RequestTally?
    private let warn: @Sendable (String) -> Void
    private let state: Mutex<(ledger: RefreshLedger, persistFailing: Bool)>

    /// The ledger as last seen.
    public var ledger: RefreshLedger { state.withLock { $0.ledger } }

    public init(provider: TimelineProvider, scheduler: ReloadScheduler, ledgerStore: LedgerStore,
                now: Date, tally: RequestTally? = nil, warn: @escaping @Sendable (String) -> Void) {
        self.tally = tally
        self.provider = provider
        self.scheduler = scheduler
        self.ledgerStore = ledgerStore
        self.warn = warn
        self.state = Mutex((ledgerStore.load(now: now, warn: warn), false))
    }

    /// Re-reads the ledger from disk, keeping any attempts only memory knows of.
    public func refreshLedger(now: Date) {
        let disk = ledgerStore.load(now: now, warn: warn)
        state.withLock { s in
            var merged = disk
            merged.records = RefreshLedger.union(disk.records, s.ledger.records)
                .filter { $0.at > now.addingTimeInterval(-RefreshLedger.window) || $0.at > now }
            if disk.lastAttempt ?? .distantPast < s.ledger.lastAttempt ?? .distantPast {
                merged.consecutiveFailures = s.ledger.consecutiveFailures
                merged.retryNotBefore = s.ledger.retryNotBefore
                merged.lastOutcome = s.ledger.lastOutcome
            }
            s.ledger = merged
        }
    }

    /// When the next reload is due for a timeline that requests `requested`.
    public func nextReload(now: Date, requested: Date?) -> Date? {
        scheduler.nextReload(now: now, ledger: ledger, requested: requested)
    }

    public func explicitDecision(now: Date) -> ReloadScheduler.ExplicitDecision {
        scheduler.explicitReload(now: now, ledger: ledger)
    }

    public func remaining(now: Date) -> Int { scheduler.budget.remaining(ledger, now: now) }

    /// Wall clock only (no monotonic reading): see `reload(at:)`.
    public func reload(now: Date) async -> TimelineResult? {
        await reload(at: HostTime(wall: now, monotonic: now.timeIntervalSince1970, boot: "wall-clock"))
    }

    /// Records the attempt, reloads, records the outcome. Returns nil without any request when the
    /// budget is spent or a Retry-After holds.
    public func reload(at now: HostTime) async -> TimelineResult? {
        refreshLedger(now: now.wall)
        var ledger = self.ledger
        if let warning = ledger.normalize(at: now) { warn(warning) }
        guard case .now = scheduler.decide(now: now.wall, ledger: ledger) else {
            warn("Reload skipped: the daily budget of \(scheduler.budget.dailyLimit) reloads is spent, or the server asked to wait.")
            return nil
        }
        let failuresBefore = ledger.consecutiveFailures
        ledger.recordAttempt(at: now)
        persist(ledger)
        _ = tally?.take()
        let result = await provider.timeline(now: now.wall, consecutiveFailures: failuresBefore)
        ledger = self.ledger
        ledger.recordExtraRequests((tally?.take() ?? 0) - 1, at: now)
        if let failure = result.failure {
            ledger.recordFailure(retryAfter: failure.error.retryAfter, now: now.wall)
        } else {
            ledger.recordSuccess()
        }
        persist(ledger)
        return result
    }

    /// One warning when saving starts failing, one line when it works again: not one per reload.
    private func persist(_ ledger: RefreshLedger) {
        let failure: Error?
        do { try ledgerStore.store(ledger); failure = nil } catch { failure = error }
        let (was, now) = state.withLock { s -> (Bool, Bool) in
            s.ledger = ledger
            let was = s.persistFailing
            s.persistFailing = failure != nil
            return (was, s.persistFailing)
        }
        if was && !now { warn("The refresh ledger can be saved again.") }
        if let failure, !was {
            warn("Could not save the refresh ledger (\(failure)); keeping it in memory, so the budget holds while this process runs: free disk space or fix permissions.")
        }
    }
}
