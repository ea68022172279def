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
    /// `headlines fetch --for-host`: the host's reload child is `headlines-fetch`, which starts in
    /// a fraction of this program's time (issue 14); run by hand, this hands over to it.
    /// `--report-images`: the image step `headlines-fetch` execs when the page has images not yet
    /// stored: the report on stdin, its images fetched, scaled and stored, the report printed.
    static func forHost(_ context: AppContext) -> Int32 {
        guard context.arguments.reportImages else {
            let child = Binaries.path(of: "headlines-fetch")
            Exec.replace(with: [child] + ["fetch", "--for-host"] + context.arguments.passThrough, environment: context.environment)
            Output.error("headlines: cannot start \(child) (\(String(cString: strerror(errno)))); reinstall headlines: it ships beside this program.")
            return 1
        }
        ParentWatch.endWithParent()
        guard var report = readReport() else {
            Output.error("headlines: --report-images reads the reload child's report on stdin; it is not for use by hand.")
            return 2
        }
        ReportImages.attach(to: &report, context: context)
        return ReportOutput.print(report)
    }

    /// The report `headlines-fetch` left on stdin (a memfd), bounded as the host bounds it.
    private static func readReport() -> ReloadReport? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while bytes.count <= ReloadReport.maxBytes {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        guard !bytes.isEmpty, bytes.count <= ReloadReport.maxBytes else { return nil }
        return try? StateJSONDecoder.headlines().decode(ReloadReport.self, from: Data(bytes))
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
