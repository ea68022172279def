import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesHTTP
import HeadlinesDesktop
import HeadlinesSources
#if canImport(Glibc)
import Glibc
#endif

/// `headlines fetch`: one refresh now, then the list.
enum FetchCommand {
    static func run(_ context: AppContext) -> Int32 {
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
