import FoundationEssentials

/// The host's decision at each wake-up, as a pure function so that tests can drive a simulated
/// week with a manual clock through exactly the logic the GLib loop runs.
public enum HostPlanner {
    public struct Plan: Equatable, Sendable {
        /// Start a network reload now.
        public var reloadNow: Bool
        /// When to wake next: the earliest of an entry change, the next reload, and the wall-clock check.
        public var wakeAt: Date
    }

    /// - Parameters:
    ///   - nextReload: the scheduler's answer for the current timeline (nil: only on request).
    ///   - reloading: a reload is already in flight (never start a second one).
    ///   - wallClockCheck: longest sleep; GLib timers stop during suspend, the wall clock does not.
    public static func plan(now: Date, timeline: Timeline, nextReload: Date?, reloading: Bool,
                            wallClockCheck: TimeInterval) -> Plan {
        let reloadNow = !reloading && (nextReload.map { $0 <= now } ?? false)
        var wake = now.addingTimeInterval(wallClockCheck)
        if let entry = timeline.nextEntryDate(after: now) { wake = min(wake, entry) }
        if !reloading && !reloadNow, let due = nextReload { wake = min(wake, due) }
        return Plan(reloadNow: reloadNow, wakeAt: wake)
    }

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
