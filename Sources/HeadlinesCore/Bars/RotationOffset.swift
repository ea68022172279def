import FoundationEssentials

/// `headlines next` / `prev`: a shared offset added to the entry index, in
/// `$XDG_RUNTIME_DIR/headlines/offset.json`, so every bar copy turns at once.
public struct RotationOffset: Codable, Equatable, Sendable {
    public var offset: Int
    public init(offset: Int = 0) { self.offset = offset }
}

extension JSONStateFile where Value == RotationOffset {
    /// The shared offset at `path` (`XDGPaths.rotationOffsetFile`).
    /// Read like every runtime file: no links, only our own (`PosixFileSystem.runtimeFolder`).
    public init(rotationOffsetAt path: String, fileSystem: any StateFileSystem = PosixFileSystem.runtimeFolder) {
        self.init(path: path, what: "rotation offset", fileSystem: fileSystem)
    }

    /// `offset.lock` beside the offset file: what `turn` locks.
    public var lockPath: String { PathText.directory(of: path) + "/offset.lock" }

    /// Adds `step` to the stored offset and stores it, under an exclusive lock on `lockPath`, so
    /// that concurrent turns (from several processes) all count. Returns the new value.
    @discardableResult
    public func turn(by step: Int, now: Date) throws -> RotationOffset {
        try FileLock.withExclusive(lockPath) {
            var value = load(now: now, warn: { _ in }) ?? RotationOffset()
            value.offset += step
            try store(value)
            return value
        }
    }
}

/// Builds what a bar shows now: the host's published timeline when a host runs, else the cache.
public enum BarStateSource {
    /// `muted` (with the config's mute-words) hides headlines from the cache; the host's
    /// timeline is already without them. `keywords` marks the matching ones.
    public static func state(published: PublishedTimeline?, cache: CachedHeadlines?, muted: MutedSources,
                             keywords: KeywordMatcher = KeywordMatcher(),
                             offset: Int, lastFailure: RefreshStatus.Failure?, now: Date) -> BarState {
        var state: BarState
        if let published, let entry = published.timeline.entry(at: now) {
            state = BarState(entry: entry, offset: offset, budgetUsed: published.budgetUsed,
                             budgetLimit: published.budgetLimit)
        } else {
            let headlines = muted.filter(cache?.headlines ?? [])
            let stale = lastFailure.map { failure in cache.map { failure.at >= $0.fetchedAt } ?? true } ?? false
            state = BarState(headlines: headlines, index: offset, freshness: stale ? .stale : .cached,
                             error: stale ? lastFailure?.message : nil)
        }
        state.keywords = keywords
        return state
    }
}
