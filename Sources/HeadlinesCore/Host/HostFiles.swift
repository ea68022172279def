import FoundationEssentials

extension RefreshLedger: EmptyStateValue {}

/// The host's timeline and schedule as the engine hands them to its driver: what the bus's
/// `GetStatus` answers from and what the bar lines are rendered from. Kept in memory only.
public struct PublishedTimeline: Equatable, Sendable {
    public var hostPID: Int32
    public var provider: String
    /// Bumped by every publication.
    public var generation: Int
    public var publishedAt: Date
    public var timeline: Timeline
    public var nextReload: Date?
    public var lastReload: Date?
    public var lastResult: String?
    public var budgetUsed: Int
    public var budgetLimit: Int
    /// An explicit reload deferred until this date, and by which limit (`ReloadDecision.Limit`).
    public var deferredUntil: Date?
    public var deferredBy: ReloadDecision.Limit?

    public init(hostPID: Int32, provider: String, generation: Int, publishedAt: Date, timeline: Timeline,
                nextReload: Date?, lastReload: Date?, lastResult: String?, budgetUsed: Int, budgetLimit: Int,
                deferredUntil: Date? = nil, deferredBy: ReloadDecision.Limit? = nil) {
        self.deferredUntil = deferredUntil
        self.deferredBy = deferredBy
        self.hostPID = hostPID
        self.provider = provider
        self.generation = generation
        self.publishedAt = publishedAt
        self.timeline = timeline
        self.nextReload = nextReload
        self.lastReload = lastReload
        self.lastResult = lastResult
        self.budgetUsed = budgetUsed
        self.budgetLimit = budgetLimit
    }
}
