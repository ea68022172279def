import FoundationEssentials

/// "Reload if due", written once: the host's start-up schedule, `headlines i3blocks` one-shots
/// and `headlines refresh` without a host all ask here. The caller reads the clocks and holds the
/// host lock for the reload itself; this touches only the ledger store it is given.
public enum ReloadIfDue {
    /// Whether a process that is not a running host should reload now: when the schedule a fresh
    /// host would follow says so (or at once when `force`), always within the budget and any
    /// Retry-After. `ledger` is normalized at `now` (and keeps the result).
    public static func isDue(at now: HostTime, ledger: inout RefreshLedger, cacheFetchedAt: Date?,
                             interval: TimeInterval, dailyBudget: Int, force: Bool = false) -> Bool {
        ledger.normalize(at: now)
        let scheduler = ReloadScheduler(budget: RefreshBudget(dailyLimit: dailyBudget))
        if force { return scheduler.decide(now: now.wall, ledger: ledger) == .now }
        let wanted = HostPlanner.startupReloadDate(now: now.wall, ledger: ledger, cacheFetchedAt: cacheFetchedAt,
                                                   interval: interval)
        guard let due = scheduler.nextReload(now: now.wall, ledger: ledger, requested: wanted, interval: interval) else { return false }
        return due <= now.wall
    }

    /// An explicit reload's decision (`headlines refresh`): now, or until when and by what.
    public static func explicitDecision(at now: HostTime, ledger: inout RefreshLedger, dailyBudget: Int) -> ReloadDecision {
        ledger.normalize(at: now)
        return ReloadScheduler(budget: RefreshBudget(dailyLimit: dailyBudget)).decide(now: now.wall, ledger: ledger)
    }

    /// The ledger as a command outside the host should see it: normalized at `now`, and written
    /// back at once when an attempt was dated in the future (one warning), so the re-dating sticks
    /// and the budget frees within 24 real hours even if no reload follows.
    public static func loadLedger(_ store: LedgerStore, at now: HostTime, warn: (String) -> Void) -> RefreshLedger {
        var ledger = store.load(now: now.wall, warn: warn)
        if let warning = ledger.normalize(at: now) {
            warn(warning)
            save(ledger, to: store, warn: warn)
        }
        return ledger
    }

    public static func save(_ ledger: RefreshLedger, to store: LedgerStore, warn: (String) -> Void) {
        do { try store.store(ledger) } catch {
            warn("Could not save the refresh ledger (\(error)): free disk space or fix permissions.")
        }
    }
}

extension RefreshLedger {
    /// Requests beyond the recorded attempt (redirect hops the API answered on its own origin),
    /// each a moment after the one before, so that no two of them are taken for the same attempt.
    public mutating func recordExtraRequests(_ count: Int, at start: HostTime) {
        guard count > 0 else { return }
        for extra in 1...count {
            let t = start.adding(Double(extra) * 0.003)
            records.append(Attempt(at: t.wall, monotonic: t.monotonic, boot: t.boot))
        }
    }
}
