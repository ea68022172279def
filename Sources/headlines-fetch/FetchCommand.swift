import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesDesktop
import HeadlinesHTTP
import HeadlinesSources
#if canImport(Glibc)
import Glibc
#endif

/// `headlines fetch`: one refresh now, then the list. The config's own source fills the cache,
/// which a running host adopts (its file watch). While a host runs, `--provider` or `--base-url`
/// make it a one-off of another source: fetched and printed, and written nowhere the host reads
/// (a private folder, removed afterwards), so it never replaces the host's cache nor has its
/// headlines notified. With no host, the cache is what `list` reads, whatever filled it.
enum FetchCommand {
    static func run(_ context: AppContext) -> Int32 {
        var context = context
        var oneOff: String?
        if context.arguments.provider != nil || context.arguments.baseURL != nil,
           BusClient.status(widget: context.arguments.widget ?? "") != nil {
            var template = Array((FileManager.default.temporaryDirectory.path + "/headlines-fetch-XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else {
                Output.error("headlines: cannot make a private folder for a one-off fetch (\(String(cString: strerror(errno)))): check TMPDIR.")
                return 1
            }
            oneOff = String(cString: made)
            context.paths.cacheHome = oneOff!
            context.paths.stateHome = oneOff!
        }
        defer { if let oneOff { try? FileManager.default.removeItem(atPath: oneOff) } }
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
