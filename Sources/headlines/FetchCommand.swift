import FoundationEssentials
import HeadlinesCore
import HeadlinesDesktop
import HeadlinesSources
#if canImport(Glibc)
import Glibc
#endif

/// `headlines fetch`: one refresh now, then the list.
enum FetchCommand {
    static func run(_ context: AppContext) -> Int32 {
        if context.arguments.forHost { return forHost(context) }
        let provider: HeadlineProvider
        do { provider = try context.makeProvider() } catch {
            Output.error("headlines: \(error.message)")
            return 2
        }
        let refresher = Refresher(provider: provider, cache: context.cache, statusStore: context.statusStore)
        let now = Date()
        switch blockingAwait({ await refresher.refreshWithReport(now: now, warn: { Output.error("headlines: warning: \($0)") }) }) {
        case let .success(outcome):
            Output.print(ListRenderer.text(outcome.cached, status: RefreshStatus(), now: now))
            // After the list, so the headlines that did come are not buried; stderr, so a script
            // reading the list sees only headlines. Still exit 0: the fetch succeeded.
            for failure in outcome.partialFailures { Output.error("headlines: warning: \(TerminalText.safe(failure))") }
            return 0
        case let .failure(failure):
            Output.error("headlines: \(failure.message)")
            return 1
        }
    }
}

extension FetchCommand {
    /// `headlines fetch --for-host`: the host's reload child. One refresh (cache and status
    /// written as by `fetch`), then its `ReloadReport` as one JSON document on stdout, exit 0
    /// whether the source answered or not (the report says). The host keeps the ledger.
    static func forHost(_ context: AppContext) -> Int32 {
        ParentWatch.endWithParent()
        let warn: @Sendable (String) -> Void = { HostLog.warning($0) }
        let tally = RequestTally()
        let provider: HeadlineProvider
        do { provider = try context.makeProvider(tally: tally) } catch {
            let failure = RefreshFailure(error: .malformedResponse(detail: "config"), message: error.message)
            return printReport(ReloadReport(headlines: context.cache.load(now: Date(), warn: warn)?.headlines ?? [],
                                            fetchedAt: nil, failure: failure, requestsSent: 0))
        }
        let refresher = Refresher(provider: provider, cache: context.cache, statusStore: context.statusStore)
        _ = tally.take()
        let now = Date()
        let fetch = blockingAwait { await refresher.fetchUnwritten(now: now, warn: warn) }
        var report = refresher.report(of: fetch, now: now, warn: warn)
        report.requestsSent = tally.take()
        ReportImages.attach(to: &report, context: context)
        // The report first, then the cache and status: the host shows the report as soon as it
        // has it, and starts no other reload until this process has exited.
        let status = printReport(report)
        refresher.write(fetch, warn: warn)
        return status
    }

    private static func printReport(_ report: ReloadReport) -> Int32 {
        guard let data = try? StateJSONEncoder.headlines().encode(report) else { return 1 }
        Output.print(String(decoding: data, as: UTF8.self))
        // The host shows the report as soon as this pipe ends: end it now rather than at the exit,
        // which first unmaps some fifty libraries. /dev/null takes its place, so fd 1 stays open.
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        if null >= 0 { dup2(null, 1); close(null) }
        return 0
    }
}

/// `headlines list [--json]`: the cache, newest first.
enum ListCommand {
    static func run(_ context: AppContext, json: Bool) -> Int32 {
        let now = Date()
        let warn: (String) -> Void = { Output.error("headlines: warning: \($0)") }
        let cached = context.cache.load(now: now, warn: warn)
        if json {
            // `[]`, not the encoder's empty pretty-printed array: a script's `jq` sees one token.
            let headlines = cached?.headlines ?? []
            Output.print(headlines.isEmpty ? "[]" : ListRenderer.json(headlines))
        } else {
            Output.print(ListRenderer.text(cached, status: context.statusStore.load(now: now, warn: warn), now: now))
        }
        return 0
    }
}
