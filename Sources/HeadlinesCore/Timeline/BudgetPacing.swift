import FoundationEssentials

/// Keeps a short `interval` from spending the day's budget in minutes and leaving the list
/// frozen for the rest of the day: when `interval` would spend `dailyLimit` reloads in less than
/// 24 hours, each scheduled reload waits until what is left of the budget, spread evenly over
/// what is left of the window, allows it. Explicit reloads are never paced: they only need budget.
public struct BudgetPacing: Equatable, Sendable {
    public var interval: TimeInterval
    public var dailyLimit: Int

    public init(interval: TimeInterval, dailyLimit: Int) {
        self.interval = interval
        self.dailyLimit = max(1, dailyLimit)
    }

    /// The whole budget spread evenly over 24 hours: the pace never goes faster than this.
    public var evenGap: TimeInterval { RefreshLedger.window / Double(dailyLimit) }

    /// True when `interval` would spend the budget in less than 24 hours.
    public var paces: Bool { interval * Double(dailyLimit) < RefreshLedger.window }

    /// The earliest a scheduled reload may go out at `now`: `now` when no pacing is needed, else
    /// the last attempt plus the larger of the even gap and an even share of the rest of the
    /// window: the reloads left fall evenly before its end (when its oldest attempt turns 24 hours
    /// old and frees the next one). A window with nothing left is the budget's own business
    /// (`RefreshBudget.earliestReload`).
    public func earliestReload(_ ledger: RefreshLedger, after now: Date) -> Date {
        guard paces, let last = ledger.lastAttempt else { return now }
        let recent = ledger.attempts.filter { $0 > now.addingTimeInterval(-RefreshLedger.window) }
        let left = dailyLimit - recent.count
        guard left > 0, let oldest = recent.first else { return max(now, last.addingTimeInterval(evenGap)) }
        let windowEnd = oldest.addingTimeInterval(RefreshLedger.window)
        let gap = max(evenGap, windowEnd.timeIntervalSince(last) / Double(left + 1))
        return max(now, last.addingTimeInterval(gap))
    }

    /// What `status` and the host's log say when pacing applies, nil otherwise: "the budget paces
    /// reloads to one every 30m: interval 20s would spend 48 reloads in 16m".
    public var sentence: String? {
        guard paces else { return nil }
        return "the budget paces reloads to one every \(Duration.format(evenGap)): interval \(Duration.format(interval)) would spend \(dailyLimit) reloads in \(Duration.format(interval * Double(dailyLimit)))"
    }
}
