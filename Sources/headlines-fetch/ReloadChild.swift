import CGLib
import FoundationEssentials
import HeadlinesCore
import HeadlinesGLib
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
        guard args.command == "fetch", args.forHost, !args.reportImages else {
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
        CurlTransport.prepare()
        if args.waitStdin { waitForStdinToEnd() }
        let now = Date()
        let fetch = blockingAwait { await refresher.fetchUnwritten(now: now, warn: warn) }
        var report = refresher.report(of: fetch, now: now, warn: warn)
        report.requestsSent = tally.take()
        let store = NotificationImageStore(paths: loaded.paths)
        let wanted = loaded.config.notifyEnabled && loaded.config.notifyImages && report.failure == nil
            ? ImageDownloads.pageImages(of: report.headlines, pageSize: loaded.config.pageSize) : []
        if wanted.contains(where: { store.existing(for: $0) == nil }) {
            // New images: written first, then the image step (the CLI, which links gdk-pixbuf)
            // takes over this process, its stdout and the report, and prints the report with them.
            refresher.write(fetch, warn: warn)
            later.flush()
            ImageStep.exec(report: report, args: args, environment: environment)
            warn("could not start the image step (\(String(cString: strerror(errno)))); this reload's notifications have no images")
            return ReportOutput.print(report)
        }
        report.images = store.storedPaths(of: report.headlines.prefix(max(1, loaded.config.pageSize)), wanted: wanted)
        // The report first, then the cache and status: the host shows the report as soon as it
        // has it, and starts no other reload until this process has exited.
        let status = ReportOutput.print(report)
        if loaded.config.notifyEnabled && loaded.config.notifyImages { store.prune(keeping: report.headlines.compactMap(\.imageURL)) }
        refresher.write(fetch, warn: warn)
        later.flush()
        return status
    }
}

/// `--wait-stdin`: the host ends this process's stdin once the ledger that counts this reload's
/// requests is on disk (ChildReloader); until then nothing is sent. The host's deadline and
/// PR_SET_PDEATHSIG bound the wait.
private func waitForStdinToEnd() {
    var byte: UInt8 = 0
    while true {
        let n = read(0, &byte, 1)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return }
    }
}

/// `headlines fetch --for-host --report-images`, started in this process's place.
enum ImageStep {
    /// Returns only when the exec failed (errno set).
    static func exec(report: ReloadReport, args: Arguments, environment: [String: String]) {
        guard let data = try? StateJSONEncoder.headlines().encode(report) else { return }
        let fd = headlines_glib_memfd("headlines-report")
        guard fd >= 0 else { return }
        let bytes = [UInt8](data)
        guard DescriptorOutput.writeAll(bytes, to: fd) == 0, lseek(fd, 0, SEEK_SET) == 0, dup2(fd, 0) == 0 else {
            close(fd)
            return
        }
        close(fd)
        Exec.replace(with: [Binaries.path(of: "headlines"), "fetch", "--for-host", "--report-images"] + args.passThrough,
                     environment: environment)
    }
}
