import FoundationEssentials

/// One refresh, the same for the CLI and the host: fetch, then on success replace the cache and
/// record the success; on failure record the failure and leave the cache exactly as it was.
public struct Refresher: Sendable {
    public let provider: HeadlineProvider
    public let cache: HeadlineCache
    public let statusStore: RefreshStatusStore

    public init(provider: HeadlineProvider, cache: HeadlineCache, statusStore: RefreshStatusStore) {
        self.provider = provider
        self.cache = cache
        self.statusStore = statusStore
    }

    /// Returns the new cache contents, or the error as one sentence for people.
    public func refresh(now: Date, warn: (String) -> Void) async -> Result<CachedHeadlines, RefreshFailure> {
        var status = statusStore.load(now: now, warn: warn)
        do {
            let headlines = try await provider.fetchHeadlines(now: now)
            let cached = CachedHeadlines(provider: provider.displayName, fetchedAt: now, headlines: headlines)
            do {
                try cache.store(cached)
            } catch {
                warn("Could not write the cache (\(error)); the headlines are kept in memory only: free disk space or fix permissions.")
            }
            status.recordSuccess(provider: provider.displayName, at: now)
            try? statusStore.store(status)
            return .success(cached)
        } catch {
            let message = error.message(provider: provider.displayName, keyVariable: provider.keyVariable)
            status.recordFailure(provider: provider.displayName, at: now, message: message)
            try? statusStore.store(status)
            return .failure(RefreshFailure(error: error, message: message))
        }
    }
}

/// A failed refresh: the typed error (for back-off decisions) and its sentence (for people).
public struct RefreshFailure: Error, Sendable, Equatable {
    public var error: NewsError
    public var message: String
}
