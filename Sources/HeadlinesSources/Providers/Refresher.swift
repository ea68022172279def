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
        let fetch = await fetchUnwritten(now: now, warn: warn)
        write(fetch, warn: warn)
        return fetch.result
    }

    /// What one fetch brought, and the status it leads to, before either is written.
    public struct Fetch: Sendable {
        public let result: Result<RefreshOutcome, RefreshFailure>
        let status: RefreshStatus
    }

    /// The fetch alone; `write` then stores what `refreshWithReport` stores. Apart so the host's
    /// fetch child can hand its report over first: the bars wait for the report, not the disk.
    public func fetchUnwritten(now: Date, warn: (String) -> Void) async -> Fetch {
        var status = statusStore.load(now: now, warn: warn)
        do {
            let report = try await provider.fetchHeadlinesWithReport(now: now)
            // Bounded as they arrive, so what is cached, reported and shown is the same.
            let cached = CachedHeadlines(provider: provider.displayName, fetchedAt: now, headlines: report.headlines.bounded())
            status.recordSuccess(provider: provider.displayName, at: now)
            return Fetch(result: .success(RefreshOutcome(cached: cached, partialFailures: report.partialFailures,
                                                              nextDue: report.nextDue)), status: status)
        } catch {
            let message = provider.failureMessage(error)
            status.recordFailure(provider: provider.displayName, at: now, message: message)
            return Fetch(result: .failure(RefreshFailure(error: error, message: message)), status: status)
        }
    }

    /// On success the new cache, and in every case the status. A failure leaves the cache exactly
    /// as it was.
    public func write(_ fetch: Fetch, warn: (String) -> Void) {
        if case let .success(outcome) = fetch.result {
            do {
                try cache.store(outcome.cached)
            } catch {
                warn("Could not write the cache (\(error)); the headlines are kept in memory only: free disk space or fix permissions.")
            }
        }
        try? statusStore.store(fetch.status)
    }
}

extension Refresher {
    /// One refresh, as the report a fetch child prints for the host: the cache after it (new or
    /// kept), the failure if any. `requestsSent` is left at 1; the caller fills in its tally.
    public func reloadReport(now: Date, warn: @Sendable (String) -> Void) async -> ReloadReport {
        let fetch = await fetchUnwritten(now: now, warn: warn)
        write(fetch, warn: warn)
        return report(of: fetch, now: now, warn: warn)
    }

    /// The report of a fetch: its headlines, or on failure what the cache holds.
    public func report(of fetch: Fetch, now: Date, warn: @Sendable (String) -> Void) -> ReloadReport {
        switch fetch.result {
        case let .success(outcome):
            var report = ReloadReport(headlines: outcome.cached.headlines, fetchedAt: outcome.cached.fetchedAt, failure: nil,
                                      partialFailures: outcome.partialFailures)
            report.nextDue = outcome.nextDue
            return report
        case let .failure(failure):
            let cached = cache.load(now: now, warn: warn)
            return ReloadReport(headlines: cached?.headlines ?? [], fetchedAt: cached?.fetchedAt, failure: failure)
        }
    }
}
