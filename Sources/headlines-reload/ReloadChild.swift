import FoundationEssentials
import HeadlinesCore
import HeadlinesGLib
import HeadlinesImages
import HeadlinesSecrets
import HeadlinesHTTP
import HeadlinesSources
#if canImport(Glibc)
import Glibc
#endif

/// The reload: `headlines-reload [global options]`, as the host's ChildReloader
/// runs it. Exit 0 whether the source answered or not (the report says); 2 for a command line or
/// config that does not load (the host then reports the exit status).
enum ReloadChild {
    static func run(_ args: Arguments, environment: [String: String]) -> Int32 {
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
        var provider: HeadlineProvider
        var session: SyncSession?
        var account: SyncAccount?
        let sources: [URL]
        do {
            let config = try ReloadSource.withSubscriptions(loaded.config, home: environment["HOME"], configFile: loaded.file,
                                                            statusStore: statusStore, warn: { _ in })
            // A sync service's credential is had now, before the sandbox (see SyncSignIn).
            account = config.syncAccount
            session = account.map {
                SyncSignIn.session(account: $0, settings: config.sync, environment: environment, token: SyncSignIn.tokenFromHost(for: $0))
            }
            provider = try ReloadSource.provider(config: config, environment: environment, paths: loaded.paths, tally: tally,
                                                 deferredWrites: later, session: session, warn: { HostLog.warning($0) })
            sources = sourceURLs(of: config)
        } catch {
            let failure = RefreshFailure(error: .malformedResponse(detail: "config"), message: error.message)
            return ReportOutput.print(ReloadReport(headlines: cache.load(now: Date(), warn: warn)?.headlines ?? [],
                                                   fetchedAt: nil, failure: failure, requestsSent: 0))
        }
        // A scheduled reload fetches only the feeds that are due; an explicit refresh every one.
        if var feeds = provider as? FeedProvider {
            feeds.onlyDue = !args.allFeeds
            provider = feeds
        }
        // Everything the child reads from its user is read by now; every byte a server sends
        // comes after this.
        ChildSandbox.apply(paths: loaded.paths, environment: environment, verbose: args.verbose)
        let refresher = Refresher(provider: provider, cache: cache, statusStore: statusStore)
        let now = Date()
        var marksSent: Int?
        if let sync = provider as? any SyncServiceProvider {
            marksSent = SyncSignIn.sendQueuedMarks(sync, store: ReadMarksStore(path: loaded.paths.readMarksFile), now: now, warn: warn)
            // Only the marks: the host asked for them alone (a headline was just opened).
            if args.marksOnly {
                var report = ReloadReport(headlines: [], fetchedAt: nil, failure: nil, requestsSent: 0)
                report.marksSent = marksSent
                report.syncToken = SyncSignIn.handBack(session, account: account)
                return ReportOutput.print(report)
            }
        }
        // Read marks are the user's own doing, not polling: the budget counts the fetch alone.
        _ = tally.take()
        let fetch = blockingAwait { await refresher.fetchUnwritten(now: now, warn: warn) }
        var report = refresher.report(of: fetch, now: now, warn: warn)
        report.requestsSent = tally.take()
        report.marksSent = marksSent
        report.syncToken = SyncSignIn.handBack(session, account: account)
        let store = NotificationImageStore(paths: loaded.paths)
        var folder: ImageFolder?
        if loaded.config.notifyEnabled && loaded.config.notifyImages {
            switch store.open() {
            case let .success(opened): folder = opened
            case let .failure(refusal): HostLog.warning(refusal.description)
            }
        }
        if let folder, report.failure == nil {
            storeImages(of: &report, pageSize: loaded.config.pageSize, store: store, folder: folder,
                        localAllowed: LocalNetwork.holdsAll(sources))
        }
        // The widget document's thumbnails, cut once from the images just stored.
        let thumbnails = NotificationImageStore.thumbnails(paths: loaded.paths)
        let thumbnailFolder = folder == nil ? nil : try? thumbnails.open().get()
        if let thumbnailFolder, let images = report.images { thumbnails.makeThumbnails(of: images, in: thumbnailFolder) }
        // The report first, then the cache and status: the host shows the report as soon as it
        // has it, and starts no other reload until this process has exited.
        let status = ReportOutput.print(report)
        if let folder { store.prune(keeping: report.headlines.compactMap(\.imageURL), in: folder) }
        if let thumbnailFolder { thumbnails.prune(keeping: report.headlines.compactMap(\.imageURL), in: thumbnailFolder) }
        refresher.write(fetch, warn: warn)
        later.flush()
        return status
    }

    /// The page's images that are not stored yet, fetched (no key, bounded in bytes), each
    /// scaled and stored as it arrives, all by one deadline, for the host's notifications; an
    /// image that fails or is not done in time only leaves its headline without one.
    private static func storeImages(of report: inout ReloadReport, pageSize: Int, store: NotificationImageStore,
                                    folder: ImageFolder, localAllowed: Bool) {
        let page = report.headlines.prefix(max(1, pageSize))
        let wanted = ImageDownloads.pageImages(of: report.headlines, pageSize: pageSize)
        let missing = wanted.filter { !store.holds($0, in: folder) }
        let downloads = ImageDownloads(maxImages: page.count, timeout: NotificationImageStore.stepSeconds, localAllowed: localAllowed)
        downloads.fetch(missing) { url, bytes, deadline in _ = store.store(bytes, for: url, in: folder, until: deadline) }
        report.images = store.storedPaths(of: page, wanted: wanted, in: folder)
    }

    /// Where the configured source reads from; an API left at its public default has no entry,
    /// so it never counts as local.
    private static func sourceURLs(of config: Config) -> [URL] {
        switch config.provider {
        case .feeds: return config.feeds
        case .json: return [config.jsonURL ?? config.baseURL].compactMap { $0 }
        case .apitube, .newsapi, .hackernews, .reddit, .lobsters, .guardian, .nyt, .gnews,
             .greader, .fever, .miniflux, .nextcloud: return [config.baseURL].compactMap { $0 }
        }
    }
}
