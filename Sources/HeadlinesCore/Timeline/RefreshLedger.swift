import FoundationEssentials

/// Every network reload attempt of the last 24 hours, and how the last ones went. Persisted
/// before each request is sent, so no restart or crash loop can spend more than the budget.
public struct RefreshLedger: Codable, Equatable, Sendable {
    /// Attempt times, oldest first, pruned to the last 24 hours.
    public var attempts: [Date] = []
    public var consecutiveFailures: Int = 0
    /// Set by a 429's Retry-After / X-RateLimit-Reset: no request before this.
    public var retryNotBefore: Date?
    public var lastOutcome: Outcome?

    public enum Outcome: String, Codable, Equatable, Sendable { case success, failure }

    public init() {}

    public static let window: TimeInterval = 24 * 3600

    public func attempts(inWindowEndingAt now: Date) -> Int {
        // Attempts dated after `now` count too: a clock stepped back must not free budget.
        attempts.filter { $0 > now.addingTimeInterval(-Self.window) }.count
    }

    /// Counts an attempt. Call before the request goes out.
    public mutating func recordAttempt(at now: Date) {
        attempts.append(now)
        attempts = attempts.filter { $0 > now.addingTimeInterval(-Self.window) }
    }

    public mutating func recordSuccess() {
        consecutiveFailures = 0
        retryNotBefore = nil
        lastOutcome = .success
    }

    public mutating func recordFailure(retryAfter: Date?) {
        consecutiveFailures += 1
        retryNotBefore = retryAfter
        lastOutcome = .failure
    }

    public var lastAttempt: Date? { attempts.last }

    /// Two attempt lists merged, sorted, with the same attempt counted once. Dates pass through
    /// JSON with millisecond precision, so "the same" means within two milliseconds.
    public static func union(_ a: [Date], _ b: [Date]) -> [Date] {
        var out: [Date] = []
        for date in (a + b).sorted() {
            if let last = out.last, date.timeIntervalSince(last) < 0.002 { continue }
            out.append(date)
        }
        return out
    }
}

/// At most `dailyLimit` reloads in any sliding 24 hours.
public struct RefreshBudget: Equatable, Sendable {
    public var dailyLimit: Int

    public init(dailyLimit: Int) { self.dailyLimit = max(1, dailyLimit) }

    public func remaining(_ ledger: RefreshLedger, now: Date) -> Int {
        max(0, dailyLimit - ledger.attempts(inWindowEndingAt: now))
    }

    /// The earliest moment a new attempt fits in the window: `now` if one is left, else when the
    /// oldest attempt that fills the window turns 24 hours old.
    public func earliestReload(_ ledger: RefreshLedger, after now: Date) -> Date {
        let recent = ledger.attempts.filter { $0 > now.addingTimeInterval(-RefreshLedger.window) }
        guard recent.count >= dailyLimit else { return now }
        // The attempt that must age out for one slot to open.
        let blocking = recent[recent.count - dailyLimit]
        return blocking.addingTimeInterval(RefreshLedger.window + 0.001)
    }
}
