import FoundationEssentials

/// When a reload is due after a start, shared by `HostEngine` and `ReloadIfDue`.
public enum HostPlanner {
    /// When a host that just started should reload: the interval after the last reload or cached
    /// fetch, or the back-off after a failed one, so that neither restarts nor a crash loop spend
    /// budget faster than a host that kept running. Now, when nothing was ever fetched.
    public static func startupReloadDate(now: Date, ledger: RefreshLedger, cacheFetchedAt: Date?,
                                         interval: TimeInterval) -> Date {
        guard let last = [ledger.lastAttempt, cacheFetchedAt].compactMap({ $0 }).max() else { return now }
        let delay = ledger.lastOutcome == .failure
            ? Backoff.delay(afterFailures: ledger.consecutiveFailures, interval: interval)
            : interval
        return last.addingTimeInterval(delay)
    }
}
