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

extension RefreshStatus: EmptyStateValue {}

/// The status file in `$XDG_STATE_HOME/headlines/status.json`; loads as an empty status when
/// missing or corrupt.
public typealias RefreshStatusStore = JSONStateFile<RefreshStatus>

extension JSONStateFile where Value == RefreshStatus {
    public init(path: String, fileSystem: any StateFileSystem = PosixFileSystem.regenerable) {
        self.init(path: path, what: "status", fileSystem: fileSystem)
    }
}
