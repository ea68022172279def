import FoundationEssentials
import Synchronization

extension RefreshLedger: EmptyStateValue {}

/// What the host publishes in `$XDG_RUNTIME_DIR/headlines/timeline.json` for bars and the CLI:
/// its timeline, so every copy shows the same entry at the same time, and its schedule.
public struct PublishedTimeline: Codable, Equatable, Sendable {
    public var hostPID: Int32
    public var provider: String
    /// Bumped by every publication, so followers and `refresh` can tell a new one.
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

    /// The longest timeline.json any reader accepts and the host writes.
    public static let fileLimit = ReadLimits.stateFile

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

/// Reads and writes the published timeline. Missing or unparseable means "no host has published".
/// Not a `JSONStateFile`: it lives in the runtime folder, is rewritten by the host at every change
/// and read many times a second by bars, so an unreadable one is simply waited past, never moved
/// aside with a warning.
public struct PublishedTimelineStore: Sendable {
    public let path: String
    public init(path: String) { self.path = path }

    /// The published timeline, nil when there is none or it cannot be used. A link, a FIFO or a
    /// file another user owns or can write is never read (it could carry the link `open`
    /// launches): it counts as "none", and `refused` hears of it once per process and path.
    /// (Reported on stderr.)
    public func load() -> PublishedTimeline? { load(refused: { Platform.standardError("headlines: warning: " + $0) }) }

    /// `load`, with the refusal handed to `refused` (once per process and path) instead of stderr.
    public func load(refused: (String) -> Void) -> PublishedTimeline? {
        let data: Data?
        do { data = try PosixFileSystem.runtimeFolder.read(path, limit: PublishedTimeline.fileLimit) } catch let refusal as RuntimeFolderRefusal {
            if RefusalsReported.first(path) { refused(refusal.description) }
            return nil
        } catch { return nil }
        guard let data else { return nil }
        return try? StateJSONDecoder.headlines().decode(PublishedTimeline.self, from: data)
    }

    /// Refuses (`StateFileTooLarge`) a timeline longer than its readers accept: the last one
    /// stays, and the bars read the cache.
    public func store(_ value: PublishedTimeline) throws {
        let data = try FileSizeLimit.encode(value, limit: PublishedTimeline.fileLimit, path: path)
        try PosixFileSystem.runtimeFolder.writeAtomically(data, to: path)
    }
}

/// Which refused runtime files this process has already reported: bars load the timeline at
/// every change, and one refusal is enough.
enum RefusalsReported {
    private static let paths = Mutex<Set<String>>([])
    /// True the first time `path` is reported.
    static func first(_ path: String) -> Bool { paths.withLock { $0.insert(path).inserted } }
}
