import FoundationEssentials

/// Decides when the next network reload may happen: a pure function of the time, the ledger, the
/// timeline's wish and the budget. Only the main loop reads the clock and arms a timer for it.
public struct ReloadScheduler: Equatable, Sendable {
    public var budget: RefreshBudget

    public init(budget: RefreshBudget) { self.budget = budget }

    /// When to reload next for a timeline that asks for `requested` (nil = never): the request,
    /// pushed later by a server's Retry-After and by the daily budget. nil when nothing is due.
    public func nextReload(now: Date, ledger: RefreshLedger, requested: Date?) -> Date? {
        guard let requested else { return nil }
        var date = requested
        if let notBefore = ledger.retryNotBefore, notBefore > date { date = notBefore }
        let allowed = budget.earliestReload(ledger, after: max(now, date))
        return max(date, allowed)
    }

    /// An explicit reload (`headlines refresh`, SIGUSR1, the network coming back): now if the
    /// budget and any Retry-After allow it, else the date it will be allowed.
    public func explicitReload(now: Date, ledger: RefreshLedger) -> ExplicitDecision {
        if let notBefore = ledger.retryNotBefore, notBefore > now { return .deferred(until: max(notBefore, budget.earliestReload(ledger, after: notBefore))) }
        let allowed = budget.earliestReload(ledger, after: now)
        return allowed <= now ? .now : .deferred(until: allowed)
    }

    public enum ExplicitDecision: Equatable, Sendable {
        case now
        case deferred(until: Date)
    }
}
