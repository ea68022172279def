import FoundationEssentials
import HeadlinesCore

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
        await refreshWithReport(now: now, warn: warn).map(\.cached)
    }

    /// `refresh`, keeping what failed beside the success: one sentence per failing feed.
    public func refreshWithReport(now: Date, warn: (String) -> Void) async -> Result<RefreshOutcome, RefreshFailure> {
        var status = statusStore.load(now: now, warn: warn)
        do {
            let report = try await provider.fetchHeadlinesWithReport(now: now)
            let cached = CachedHeadlines(provider: provider.displayName, fetchedAt: now, headlines: report.headlines)
            do {
                try cache.store(cached)
            } catch {
                warn("Could not write the cache (\(error)); the headlines are kept in memory only: free disk space or fix permissions.")
            }
            status.recordSuccess(provider: provider.displayName, at: now)
            try? statusStore.store(status)
            return .success(RefreshOutcome(cached: cached, partialFailures: report.partialFailures))
        } catch {
            let message = provider.failureMessage(error)
            status.recordFailure(provider: provider.displayName, at: now, message: message)
            try? statusStore.store(status)
            return .failure(RefreshFailure(error: error, message: message))
        }
    }
}
