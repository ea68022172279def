import FoundationEssentials
import HeadlinesCore

extension ReloadIfDue {
    /// One budgeted reload outside the host: the attempt is saved before the request goes out,
    /// redirects the transport counted are added, the outcome is saved after. nil (and no request)
    /// when the budget or a Retry-After forbids it. `after` reads the clocks when the answer came.
    public static func reload(provider: TimelineProvider, dailyBudget: Int, ledgerStore: LedgerStore,
                              tally: RequestTally?, at now: HostTime, after: () -> HostTime,
                              warn: (String) -> Void) async -> TimelineResult? {
        var ledger = loadLedger(ledgerStore, at: now, warn: warn)
        let decision = ReloadScheduler(budget: RefreshBudget(dailyLimit: dailyBudget)).decide(now: now.wall, ledger: ledger)
        if case let .deferred(until, by) = decision {
            // Name the one limit that holds it back: the fix differs (wait, or raise the budget).
            let why = by == .dailyBudget ? "the daily budget (\(dailyBudget) reload\(dailyBudget == 1 ? "" : "s") a day) is spent"
                                         : "the server's Retry-After asks to wait"
            warn("Reload skipped: \(why); the next is allowed at \(LocalTime.stamp(until)).")
            return nil
        }
        let failuresBefore = ledger.consecutiveFailures
        ledger.recordAttempt(at: now)
        save(ledger, to: ledgerStore, warn: warn)
        _ = tally?.take()
        let result = await provider.timeline(now: now.wall, consecutiveFailures: failuresBefore)
        let end = after()
        ledger.recordExtraRequests((tally?.take() ?? 0) - 1, at: now)
        if let failure = result.failure {
            ledger.recordFailure(retryAfter: failure.error.retryAfter, now: end.wall)
        } else {
            ledger.recordSuccess()
        }
        save(ledger, to: ledgerStore, warn: warn)
        return result
    }
}
