import FoundationEssentials

/// What happened at the last refresh attempts, kept apart from the cache so that a failed fetch
/// leaves the cache byte-for-byte as it was. `list` and `status` read it.
public struct RefreshStatus: Codable, Equatable, Sendable {
    public var provider: String?
    public var lastAttempt: Date?
    public var lastSuccess: Date?
    /// Set by a failure, cleared by the next success.
    public var lastFailure: Failure?

    public struct Failure: Codable, Equatable, Sendable {
        public var at: Date
        public var message: String
        public init(at: Date, message: String) { self.at = at; self.message = message }
    }

    public init() {}

    public mutating func recordSuccess(provider: String, at now: Date) {
        self.provider = provider
        lastAttempt = now
        lastSuccess = now
        lastFailure = nil
    }

    public mutating func recordFailure(provider: String, at now: Date, message: String) {
        self.provider = provider
        lastAttempt = now
        lastFailure = Failure(at: now, message: message)
    }
}

/// The status file in `$XDG_STATE_HOME/headlines/status.json`.
public struct RefreshStatusStore: Sendable {
    public let path: String
    public init(path: String) { self.path = path }

    public func load(now: Date, warn: (String) -> Void) -> RefreshStatus {
        loadJSON(RefreshStatus.self, path: path, what: "status", now: now, warn: warn) ?? RefreshStatus()
    }

    public func store(_ status: RefreshStatus) throws {
        try Platform.writeAtomically(try JSONEncoder.headlines().encode(status), to: path)
    }
}
