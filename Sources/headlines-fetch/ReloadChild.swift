import FoundationEssentials
import HeadlinesCore
import HeadlinesDesktop
import HeadlinesHTTP
import HeadlinesSources
#if canImport(Glibc)
import Glibc
#endif

/// The reload: `headlines-fetch fetch --for-host [global options]`, as the host's ChildReloader
/// runs it. Exit 0 whether the source answered or not (the report says); 2 for a command line or
/// config that does not load (the host then reports the exit status).
enum ReloadChild {
    static func run(arguments argv: [String], environment: [String: String]) -> Int32 {
        let args: Arguments
        do { args = try Arguments.parse(argv) } catch {
            HostLog.error("\(error.message); headlines-fetch is the host's reload child: run `headlines fetch` instead.")
            return 2
        }
        guard args.command == "fetch", args.forHost else {
            HostLog.error("headlines-fetch is the host's reload child: run `headlines fetch` instead.")
            return 2
        }
        ParentWatch.endWithParent()
        let loaded: LoadedConfig
        do { loaded = try LoadedConfig.load(args: args, environment: environment) } catch {
            HostLog.error(error.message)
            return 2
        }
        let warn: @Sendable (String) -> Void = { HostLog.warning($0) }
        let cache = HeadlineCache(path: loaded.paths.cacheFile)
        let statusStore = RefreshStatusStore(path: loaded.paths.statusFile)
        let tally = RequestTally()
        let later = DeferredWrites()
        let provider: HeadlineProvider
        do {
            let config = try ReloadSource.withSubscriptions(loaded.config, home: environment["HOME"], configFile: loaded.file,
                                                            statusStore: statusStore, warn: { _ in })
            provider = try ReloadSource.provider(config: config, environment: environment, paths: loaded.paths, tally: tally,
                                                 deferredWrites: later, warn: { HostLog.warning($0) })
        } catch {
            let failure = RefreshFailure(error: .malformedResponse(detail: "config"), message: error.message)
            return ReportOutput.print(ReloadReport(headlines: cache.load(now: Date(), warn: warn)?.headlines ?? [],
                                                   fetchedAt: nil, failure: failure, requestsSent: 0))
        }
        let refresher = Refresher(provider: provider, cache: cache, statusStore: statusStore)
        _ = tally.take()
        let now = Date()
        let fetch = blockingAwait { await refresher.fetchUnwritten(now: now, warn: warn) }
        var report = refresher.report(of: fetch, now: now, warn: warn)
        report.requestsSent = tally.take()
        let images = loaded.config.notifyEnabled && loaded.config.notifyImages
        if images && report.failure == nil { storeImages(of: &report, pageSize: loaded.config.pageSize, paths: loaded.paths) }
        // The report first, then the cache and status: the host shows the report as soon as it
        // has it, and starts no other reload until this process has exited.
        let status = ReportOutput.print(report)
        if images { NotificationImageStore(paths: loaded.paths).prune(keeping: report.headlines.compactMap(\.imageURL)) }
        refresher.write(fetch, warn: warn)
        later.flush()
        return status
    }

    /// The page's images that are not stored yet, fetched (no key, bounded in bytes and time),
    /// scaled and stored for the host's notifications; an image that fails only leaves its
    /// headline without one.
    private static func storeImages(of report: inout ReloadReport, pageSize: Int, paths: XDGPaths) {
        let store = NotificationImageStore(paths: paths)
        let page = report.headlines.prefix(max(1, pageSize))
        let wanted = ImageDownloads.pageImages(of: report.headlines, pageSize: pageSize)
        let missing = wanted.filter { store.existing(for: $0) == nil }
        for (url, bytes) in ImageDownloads(maxImages: page.count).fetch(missing) { _ = store.store(bytes, for: url) }
        report.images = store.storedPaths(of: page, wanted: wanted)
    }
}
