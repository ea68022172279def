import FoundationEssentials

/// Every network reload attempt of the last 24 real hours, and how the last ones went. Persisted
/// before each request is sent, so no restart or crash loop can spend more than the budget.
///
/// Each attempt carries the wall-clock date and, when known, the CLOCK_BOOTTIME reading of the
/// boot it happened in. `normalize(at:)` rewrites every date from its real age before any
/// decision, so a wall clock stepped either way neither frees budget nor stalls reloads.
///
/// Its Codable form is the one-document `ledger.json` of earlier versions, which still loads;
/// `LedgerFile` is how the file is written now.
public struct RefreshLedger: Codable, Equatable, Sendable {
    public struct Attempt: Codable, Equatable, Sendable {
        public var at: Date
        public var monotonic: TimeInterval?
        public var boot: String?
        public init(at: Date, monotonic: TimeInterval? = nil, boot: String? = nil) {
            self.at = at
            self.monotonic = monotonic
            self.boot = boot
        }
    }

    /// Attempts, oldest first, pruned to the last 24 hours. Setting them makes the next save
    /// rewrite the file whole.
    public var records: [Attempt] {
        get { kept }
        set { kept = newValue; unsaved = .all }
    }
    private var kept: [Attempt] = []
    /// What the ledger's file lacks. Not part of the ledger's value: two ledgers with the same
    /// attempts and outcome are equal whatever their files hold.
    public private(set) var unsaved = Unsaved.all
    public var consecutiveFailures: Int = 0
    /// Set by a 429's Retry-After / X-RateLimit-Reset: no request before this (capped at 24 h).
    public var retryNotBefore: Date?
    public var lastOutcome: Outcome?
    /// A digest of the news source the cache was last filled from, so a restart with another
    /// provider or other feeds reloads at once.
    public var source: String?
    /// When the first feed of the source is next due, as the last reload's child said
    /// (`ReloadReport.nextDue`): a scheduled reload before it would fetch nothing, so the host
    /// waits for it, also after a restart. Capped at 24 h from now, as a server's wait is.
    public var nextDue: Date?

    public enum Outcome: String, Codable, Equatable, Sendable { case success, failure }

    /// What a save must write, so that a save costs what changed rather than the whole day: the
    /// store appends the newest attempts, and rewrites the file only when older ones changed.
    public enum Unsaved: Equatable, Sendable {
        /// The file holds every attempt but the newest `count` (the failures, outcome, wait,
        /// source and next due date go into every line, so a line appended with them brings them
        /// up to date).
        case newest(Int)
        /// Attempts already in the file were re-dated, or this ledger did not come from a save:
        /// the file is rewritten whole.
        case all
    }

    /// The ledger was just handed to its store: from now on only what changes is unsaved.
    public mutating func markSaved() { unsaved = .newest(0) }

    private mutating func appended(_ count: Int) {
        if case let .newest(n) = unsaved { unsaved = .newest(n + count) }
    }

    public static func == (a: RefreshLedger, b: RefreshLedger) -> Bool {
        a.kept == b.kept && a.consecutiveFailures == b.consecutiveFailures && a.retryNotBefore == b.retryNotBefore
            && a.lastOutcome == b.lastOutcome && a.source == b.source && a.nextDue == b.nextDue
    }

    public init() {}

    public static let window: TimeInterval = 24 * 3600

    /// The attempt dates (wall clock), oldest first. Setting them drops the monotonic readings.
    public var attempts: [Date] {
        get { records.map(\.at) }
        set { records = newValue.map { Attempt(at: $0) } }
    }

    enum CodingKeys: String, CodingKey { case attempts, clocks, consecutiveFailures, retryNotBefore, lastOutcome, source, nextDue }
    struct Clock: Codable { var boot: String?; var monotonic: TimeInterval? }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let dates = try c.decodeIfPresent([Date].self, forKey: .attempts) ?? []
        let clocks = try c.decodeIfPresent([Clock].self, forKey: .clocks) ?? []
        kept = dates.enumerated().map { i, date in
            let clock = i < clocks.count ? clocks[i] : nil
            return Attempt(at: date, monotonic: clock?.monotonic, boot: clock?.boot)
        }
        consecutiveFailures = try c.decodeIfPresent(Int.self, forKey: .consecutiveFailures) ?? 0
        retryNotBefore = try c.decodeIfPresent(Date.self, forKey: .retryNotBefore)
        lastOutcome = try c.decodeIfPresent(Outcome.self, forKey: .lastOutcome)
        source = try c.decodeIfPresent(String.self, forKey: .source)
        nextDue = try c.decodeIfPresent(Date.self, forKey: .nextDue)
    }

    /// `attempts` stays a plain list of dates, which older versions and `status` read.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(attempts, forKey: .attempts)
        try c.encode(records.map { Clock(boot: $0.boot, monotonic: $0.monotonic) }, forKey: .clocks)
        try c.encode(consecutiveFailures, forKey: .consecutiveFailures)
        try c.encodeIfPresent(retryNotBefore, forKey: .retryNotBefore)
        try c.encodeIfPresent(lastOutcome, forKey: .lastOutcome)
        try c.encodeIfPresent(source, forKey: .source)
        try c.encodeIfPresent(nextDue, forKey: .nextDue)
    }

    public func attempts(inWindowEndingAt now: Date) -> Int {
        // Attempts dated after `now` count too: a clock stepped back must not free budget.
        attempts.filter { $0 > now.addingTimeInterval(-Self.window) }.count
    }

    /// Re-dates every attempt from its real age at `now`: same-boot attempts by the monotonic
    /// clock, others by the wall clock; an attempt dated in the future is taken as made now
    /// (re-stamped, so it ages out 24 real hours later). Caps a Retry-After and the feeds' next
    /// due date to 24 h from now.
    /// Returns one warning when something was dated in the future.
    ///
    /// Re-dating that the file's readings do not already give (another boot's attempts, a future
    /// date, a wall clock stepped under the host) makes the next save rewrite the file whole.
    @discardableResult
    public mutating func normalize(at now: HostTime) -> String? {
        var future = 0
        var redated = false
        var dated = kept.map { a in
            var age: TimeInterval
            if a.boot == now.boot, let m = a.monotonic {
                age = now.monotonic - m
            } else {
                age = now.wall.timeIntervalSince(a.at)
                redated = true
            }
            if age < -1 { future += 1; age = 0; redated = true }
            age = max(0, age)
            let at = now.wall.addingTimeInterval(-age)
            // A wall clock stepped under the host moves a same-boot date by the step: the wall
            // date in the file, all a later boot can age it by, would be off by as much.
            if abs(at.timeIntervalSince(a.at)) > Self.stepTolerance { redated = true }
            return Attempt(at: at, monotonic: now.monotonic - age, boot: now.boot)
        }
        if !dated.indices.dropFirst().allSatisfy({ dated[$0 - 1].at <= dated[$0].at }) {
            // Reordered: the newest attempts may no longer be the last ones.
            dated.sort { $0.at < $1.at }
            redated = true
        }
        // Sorted, so what turned 24 hours old is a prefix and the newest attempts stay last.
        dated.removeFirst(dated.prefix { now.wall.timeIntervalSince($0.at) >= Self.window }.count)
        kept = dated
        if redated {
            unsaved = .all
        } else if case let .newest(n) = unsaved {
            unsaved = .newest(min(n, kept.count))
        }
        retryNotBefore = ServerWait.capped(retryNotBefore, now: now.wall)
        nextDue = ServerWait.capped(nextDue, now: now.wall)
        guard future > 0 else { return nil }
        return "\(future) reload attempt\(future == 1 ? " was" : "s were") dated in the future (the clock was set ahead, or the ledger was edited): counted as made now, so the budget frees up within 24 hours."
    }

    /// Counts an attempt at both clocks. Call before the request goes out.
    @discardableResult
    public mutating func recordAttempt(at now: HostTime) -> Attempt {
        normalize(at: now)
        let attempt = Attempt(at: now.wall, monotonic: now.monotonic, boot: now.boot)
        kept.append(attempt)
        appended(1)
        return attempt
    }

    /// Counts an attempt known only by the wall clock (kept for callers without a HostTime).
    public mutating func recordAttempt(at now: Date) {
        records = (kept + [Attempt(at: now)]).filter { $0.at > now.addingTimeInterval(-Self.window) || $0.at > now }
    }

    public mutating func recordSuccess() {
        consecutiveFailures = 0
        retryNotBefore = nil
        lastOutcome = .success
    }

    /// `now` caps the server's wait at 24 hours from the failure.
    public mutating func recordFailure(retryAfter: Date?, now: Date? = nil) {
        consecutiveFailures += 1
        retryNotBefore = now.map { ServerWait.capped(retryAfter, now: $0) } ?? retryAfter
        lastOutcome = .failure
    }

    public var lastAttempt: Date? { kept.last?.at }

    /// How far a same-boot attempt's wall date may drift from its file's before the file is
    /// rewritten: the engine's threshold for a wall-clock step.
    static let stepTolerance: TimeInterval = 2
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
        return max(now, blocking.addingTimeInterval(RefreshLedger.window + 0.001))
    }

    /// True when reloading every `interval` would spend the budget in less than 24 hours: the
    /// scheduled reloads are then paced (`pacedReload`), so the list does not freeze by noon.
    public func paces(interval: TimeInterval) -> Bool {
        interval * Double(dailyLimit) < RefreshLedger.window
    }

    /// The earliest a paced reload may go out: what is left of the budget, plus the slot the
    /// oldest attempt frees when it turns 24 hours old, spread evenly from the last attempt to
    /// that moment. With nothing spent, one reload every 24 h / `dailyLimit`; after a burst
    /// (explicit refreshes), what is left lasts until the burst ages out. `now` with no attempt.
    public func pacedReload(_ ledger: RefreshLedger, after now: Date) -> Date {
        let recent = ledger.attempts.filter { $0 > now.addingTimeInterval(-RefreshLedger.window) }
        guard let oldest = recent.first, let last = recent.last else { return now }
        let slots = Double(max(1, dailyLimit - recent.count + 1))
        let frees = oldest.addingTimeInterval(RefreshLedger.window)
        return max(now, last.addingTimeInterval(max(0, frees.timeIntervalSince(last)) / slots))
    }

    /// One sentence for the log and `headlines status` when `interval` is paced, else nil.
    public func pacingNote(interval: TimeInterval) -> String? {
        guard paces(interval: interval) else { return nil }
        let spent = Duration.format((interval * Double(dailyLimit)).rounded(.up))
        let every = Duration.format((RefreshLedger.window / Double(dailyLimit)).rounded(.up))
        return "interval \(Duration.format(interval)) would spend the daily budget of \(dailyLimit) in \(spent), so the budget paces the reloads to last the day (about one every \(every)); an explicit refresh still goes out while budget remains."
    }
}

extension RefreshLedger {
    /// Requests beyond the recorded attempt (redirect hops the API answered on its own origin),
    /// each a moment after the one before, so that no two of them are taken for the same attempt.
    public mutating func recordExtraRequests(_ count: Int, at start: HostTime) {
        guard count > 0 else { return }
        for extra in 1...count {
            let t = start.adding(Double(extra) * 0.003)
            kept.append(Attempt(at: t.wall, monotonic: t.monotonic, boot: t.boot))
        }
        appended(count)
    }
}
