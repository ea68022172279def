import FoundationEssentials

/// When a reload is due after a start (`HostEngine`).
public enum HostPlanner {
    /// When a host that just started should reload: the interval after the last reload or cached
    /// fetch, or the back-off after a failed one, so that neither restarts nor a crash loop spend
    /// budget faster than a host that kept running. Now, when nothing was ever fetched.
    public static func startupReloadDate(now: Date, ledger: RefreshLedger, cacheFetchedAt: Date?,
                                         interval: TimeInterval) -> Date {
        // A cache dated in the future (the clock was set back since) counts as fetched at the
        // last attempt the ledger knows (its date is honest once normalized), else now: it must
        // not put the first reload off by however far the clock moved.
        let fetched = cacheFetchedAt.map { $0 > now ? min(ledger.lastAttempt ?? now, now) : $0 }
        guard let last = [ledger.lastAttempt.map { min($0, now) }, fetched].compactMap({ $0 }).max() else { return now }
        let delay = ledger.lastOutcome == .failure
            ? Backoff.delay(afterFailures: ledger.consecutiveFailures, interval: interval)
            : interval
        return last.addingTimeInterval(delay)
    }
}
