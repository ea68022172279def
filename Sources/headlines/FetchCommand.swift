import FoundationEssentials
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
    /// `headlines fetch --for-host`: the host's reload child is `headlines-fetch`; run by hand,
    /// this hands over to it.
    static func forHost(_ context: AppContext) -> Int32 {
        let child = Binaries.path(of: "headlines-fetch")
        var options = context.arguments.passThrough
        if context.arguments.verbose { options.append("--verbose") }
        Exec.replace(with: [child] + ["fetch", "--for-host"] + options, environment: context.environment)
        Output.error("headlines: cannot start \(child) (\(String(cString: strerror(errno)))); reinstall headlines: it ships in PREFIX/libexec/headlines.")
        return 1
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
