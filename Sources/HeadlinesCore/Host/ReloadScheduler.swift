import FoundationEssentials

/// Decides when the next network reload may happen: a pure function of the time, the ledger, the
/// timeline's wish and the budget. Callers normalize the ledger at `now` first
/// (`RefreshLedger.normalize(at:)`), so every date in it is honest about real time.
public struct ReloadScheduler: Equatable, Sendable {
    public var budget: RefreshBudget

    public init(budget: RefreshBudget) { self.budget = budget }

    /// When to reload next for a timeline that asks for `requested` (nil = never): the request,
    /// pushed later by a server's Retry-After (capped at 24 h) and by the daily budget, and paced
    /// when reloading every `interval` would spend the budget early (`RefreshBudget.paces`).
    /// `interval` nil: an explicit request the limits deferred, which is never paced.
    public func nextReload(now: Date, ledger: RefreshLedger, requested: Date?, interval: TimeInterval?) -> Date? {
        guard let requested else { return nil }
        var date = requested
        if let notBefore = ServerWait.capped(ledger.retryNotBefore, now: now), notBefore > date { date = notBefore }
        if let interval, budget.paces(interval: interval) { date = max(date, budget.pacedReload(ledger, after: now)) }
        let allowed = budget.earliestReload(ledger, after: max(now, date))
        return max(date, allowed)
    }

    /// An explicit reload (`headlines refresh`, the bus's Reload, the network coming back): now if the
    /// budget and any Retry-After allow it, else the date it will be allowed.
    public func explicitReload(now: Date, ledger: RefreshLedger) -> ExplicitDecision {
        switch decide(now: now, ledger: ledger) {
        case .now: return .now
        case let .deferred(until, _): return .deferred(until: until)
        }
    }

    /// The same decision, saying which limit defers it.
    public func decide(now: Date, ledger: RefreshLedger) -> ReloadDecision {
        if let notBefore = ServerWait.capped(ledger.retryNotBefore, now: now), notBefore > now {
            return .deferred(until: max(notBefore, budget.earliestReload(ledger, after: notBefore)), by: .server)
        }
        let allowed = budget.earliestReload(ledger, after: now)
        return allowed <= now ? .now : .deferred(until: allowed, by: .dailyBudget)
    }

    public enum ExplicitDecision: Equatable, Sendable {
        case now
        case deferred(until: Date)
    }
}

/// Whether an explicit reload may go out now, and if not until when and why.
public enum ReloadDecision: Equatable, Sendable {
    case now
    case deferred(until: Date, by: Limit)

    /// What holds a reload back.
    public enum Limit: String, Codable, Equatable, Sendable {
        /// `daily-budget` reloads were made in the last 24 hours.
        case dailyBudget = "daily-budget"
        /// The server's Retry-After / X-RateLimit-Reset (capped at 24 hours).
        case server = "retry-after"

        /// For people: "the daily budget" / "the server's Retry-After".
        public var phrase: String {
            switch self {
            case .dailyBudget: return "the daily budget"
            case .server: return "the server's Retry-After"
            }
        }
    }
}
