import FoundationEssentials

/// Performs network reloads within the daily budget: every attempt is written to the ledger
/// before the request goes out, so a crash mid-request still counts it. Used by the host and by
/// one-shot bar commands. Only one process reloads at a time (the host lock); callers hold it.
public final class BudgetedReloader: @unchecked Sendable {
    public let provider: TimelineProvider
    public let scheduler: ReloadScheduler
    public let ledgerStore: LedgerStore
    /// Key-bearing requests the transport really sent (redirect hops included), if it counts.
    private let tally: RequestTally?
    private let warn: @Sendable (String) -> Void
    /// The ledger as last seen, kept in memory too, so that a read-only or full disk still cannot
    /// make the budget forget attempts.
    public private(set) var ledger: RefreshLedger

    public init(provider: TimelineProvider, scheduler: ReloadScheduler, ledgerStore: LedgerStore,
                now: Date, tally: RequestTally? = nil, warn: @escaping @Sendable (String) -> Void) {
        self.tally = tally
        self.provider = provider
        self.scheduler = scheduler
        self.ledgerStore = ledgerStore
        self.warn = warn
        self.ledger = ledgerStore.load(now: now, warn: warn)
    }

    /// Re-reads the ledger from disk, keeping any attempts only memory knows of.
    public func refreshLedger(now: Date) {
        let disk = ledgerStore.load(now: now, warn: warn)
        var merged = disk
        merged.attempts = RefreshLedger.union(disk.attempts, ledger.attempts)
            .filter { $0 > now.addingTimeInterval(-RefreshLedger.window) }
        if disk.lastAttempt ?? .distantPast < ledger.lastAttempt ?? .distantPast {
            merged.consecutiveFailures = ledger.consecutiveFailures
            merged.retryNotBefore = ledger.retryNotBefore
            merged.lastOutcome = ledger.lastOutcome
        }
        ledger = merged
    }

    /// When the next reload is due for a timeline that requests `requested`.
    public func nextReload(now: Date, requested: Date?) -> Date? {
        scheduler.nextReload(now: now, ledger: ledger, requested: requested)
    }

    public func explicitDecision(now: Date) -> ReloadScheduler.ExplicitDecision {
        scheduler.explicitReload(now: now, ledger: ledger)
    }

    public func remaining(now: Date) -> Int { scheduler.budget.remaining(ledger, now: now) }

    /// Records the attempt, reloads, records the outcome. Returns nil without any request when the
    /// budget is spent (callers should have asked `nextReload` or `explicitDecision` first).
    public func reload(now: Date) async -> TimelineResult? {
        refreshLedger(now: now)
        guard scheduler.budget.remaining(ledger, now: now) > 0 else {
            warn("Reload skipped: the daily budget of \(scheduler.budget.dailyLimit) reloads is spent.")
            return nil
        }
        let failuresBefore = ledger.consecutiveFailures
        ledger.recordAttempt(at: now)
        persist()
        _ = tally?.take()
        let result = await provider.timeline(now: now, consecutiveFailures: failuresBefore)
        // A redirect the API answered on its own origin is one more request on its quota: each
        // one beyond the attempt recorded above counts too, a few milliseconds apart so that the
        // ledger's merge (which treats attempts within 2 ms as one) keeps them all.
        let sent = tally?.take() ?? 0
        for extra in stride(from: 1, to: sent, by: 1) {
            ledger.recordAttempt(at: now.addingTimeInterval(Double(extra) * 0.003))
        }
        if let failure = result.failure {
            ledger.recordFailure(retryAfter: failure.error.retryAfter)
        } else {
            ledger.recordSuccess()
        }
        persist()
        return result
    }

    /// One warning when saving starts failing, one line when it works again: not one per reload.
    private var persistFailing = false

    private func persist() {
        do {
            try ledgerStore.store(ledger)
            if persistFailing { warn("The refresh ledger can be saved again.") }
            persistFailing = false
        } catch {
            if !persistFailing {
                warn("Could not save the refresh ledger (\(error)); keeping it in memory, so the budget holds while this process runs: free disk space or fix permissions.")
            }
            persistFailing = true
        }
    }
}
