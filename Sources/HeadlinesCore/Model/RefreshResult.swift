import FoundationEssentials

/// A successful refresh: the new cache contents and the parts that failed beside them.
public struct RefreshOutcome: Sendable, Equatable {
    public var cached: CachedHeadlines
    /// One sentence per failing feed (naming its URL and the fix); empty when everything answered.
    public var partialFailures: [String]
    /// When the source's feeds are next due (`FetchReport.nextDue`); nil for the news APIs.
    public var nextDue: Date?
    public init(cached: CachedHeadlines, partialFailures: [String] = [], nextDue: Date? = nil) {
        self.cached = cached
        self.partialFailures = partialFailures
        self.nextDue = nextDue
    }
}

/// A failed refresh: the typed error (for back-off decisions) and its sentence (for people).
public struct RefreshFailure: Error, Sendable, Equatable, Codable {
    public var error: NewsError
    public var message: String

    public init(error: NewsError, message: String) {
        self.error = error
        self.message = message
    }
}
