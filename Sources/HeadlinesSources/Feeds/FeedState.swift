import FoundationEssentials
import HeadlinesCore

/// Per-feed validators, last headlines and last error: `$XDG_CACHE_HOME/headlines/feeds.json`.
/// `headlines` holds at most the provider's `maxHeadlines` newest, never every item of the feed.
public struct FeedState: Codable, Equatable, Sendable {
    public var etag: String?
    public var lastModified: String?
    public var headlines: [Headline] = []
    public var lastSuccess: Date?
    public var lastError: String?
    public var lastErrorAt: Date?
    /// When a scheduled reload next fetches the feed, and why (a `FeedSchedule.Reason`); nil:
    /// at every reload. A string, so a reason an older or newer version wrote never makes the
    /// whole file unreadable.
    public var nextFetch: Date?
    public var nextFetchReason: String?
    /// How often the feed's last body said it changes, for the 304s that follow it.
    public var period: FeedPeriod?
    /// Where a permanent redirect (301, 308) moved the feed: later fetches go there directly.
    public var movedTo: URL?
    /// When the feed answered 410 Gone: scheduled reloads no longer fetch it.
    public var goneAt: Date?
    public init() {}
}

public struct FeedStates: Codable, Equatable, Sendable {
    public var feeds: [String: FeedState] = [:]
    public init() {}

    /// The longest feeds.json any reader accepts and any writer writes.
    public static let fileLimit = ReadLimits.stateFile
}

extension FeedStates: ShrinkableFileValue {
    /// Drops the oldest headlines of all feeds together. A feed that lost some also loses its
    /// validators, so its next fetch is a whole one and not a 304 that would keep the cut list.
    public func shrunk(dropping fraction: Double) -> FeedStates? {
        let all = feeds.flatMap { key, state in state.headlines.indices.map { (key, $0, state.headlines[$0].publishedAt) } }
        guard !all.isEmpty else { return nil }
        let drop = all.sorted { ($0.2, $0.0, $1.1) < ($1.2, $1.0, $0.1) }.prefix(FileSizeLimit.dropCount(all.count, fraction: fraction))
        var copy = self
        for (key, positions) in Dictionary(grouping: drop, by: \.0) {
            let gone = Set(positions.map(\.1))
            guard var state = copy.feeds[key] else { continue }
            state.headlines = state.headlines.indices.filter { !gone.contains($0) }.map { state.headlines[$0] }
            state.etag = nil
            state.lastModified = nil
            copy.feeds[key] = state
        }
        return copy
    }
}

/// `$XDG_CACHE_HOME/headlines/feeds.json` through the one JSON state-file store.
public typealias FeedStateStore = JSONStateFile<FeedStates>

extension FeedStates: EmptyStateValue {}

extension JSONStateFile where Value == FeedStates {
    public init(path: String, fileSystem: any StateFileSystem = PosixFileSystem.regenerable) {
        self.init(path: path, what: "feed state", fileSystem: fileSystem, limit: FeedStates.fileLimit)
    }
}
