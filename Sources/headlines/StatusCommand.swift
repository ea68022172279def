import FoundationEssentials
import HeadlinesCore
import HeadlinesSources
import HeadlinesDesktop

/// `headlines status [--json]`: what the host is doing and how much budget is left.
enum StatusCommand {
    struct Report: Encodable {
        var provider: String
        var host_running: Bool
        var host_pid: Int32?
        var last_reload: Date?
        var last_result: String?
        var next_reload: Date?
        var reloads_last_24h: Int
        var daily_budget: Int
        var cache_fetched_at: Date?
        var cache_headlines: Int
        var last_error: String?
        var last_error_at: Date?
        var feeds: [FeedReport]?
    }

    struct FeedReport: Encodable {
        var url: String
        var ok: Bool
        /// "ok", "failing" (its last fetch failed) or "not fetched yet".
        var state: String
        var headlines: Int
        var last_success: Date?
        var error: String?
    }

    static func feedReports(_ context: AppContext, now: Date) -> [FeedReport] {
        let states = FeedStateStore(path: context.paths.feedStateFile).load(now: now, warn: { _ in }).feeds
        return context.config.feeds.map { url in
            let state = states[url.absoluteString]
            let failing = state?.lastError != nil
            let ok = state != nil && !failing && state?.lastSuccess != nil
            return FeedReport(url: url.absoluteString, ok: ok, state: ok ? "ok" : (failing ? "failing" : "not fetched yet"),
                              headlines: state?.headlines.count ?? 0, last_success: state?.lastSuccess, error: state?.lastError)
        }
    }

    static func run(_ context: AppContext, json: Bool) -> Int32 {
        let clocks = HostClock.now()
        let now = clocks.wall
        let warn: (String) -> Void = { Output.error("headlines: warning: \($0)") }
        // Normalized as the host sees it: attempts aged by the monotonic clock, future dates as now.
        var ledger = LedgerStore(path: context.paths.ledgerFile).load(now: now, warn: warn)
        ledger.normalize(at: clocks)
        let status = context.statusStore.load(now: now, warn: warn)
        let cached = context.cache.load(now: now, warn: warn)
        let holder = context.host.holder()
        let pid: Int32? = if case let .host(found) = holder { found } else { nil }
        let published = pid == nil ? nil : PublishedTimelineStore(path: context.paths.publishedTimelineFile).load()
        let report = Report(
            provider: published?.provider ?? context.config.provider.displayName,
            host_running: pid != nil, host_pid: pid,
            last_reload: status.lastAttempt, last_result: status.lastFailure == nil ? (status.lastSuccess == nil ? nil : "ok") : "failed",
            next_reload: published?.nextReload,
            reloads_last_24h: ledger.attempts(inWindowEndingAt: now), daily_budget: context.config.dailyBudget,
            cache_fetched_at: cached?.fetchedAt, cache_headlines: cached?.headlines.count ?? 0,
            last_error: status.lastFailure?.message, last_error_at: status.lastFailure?.at,
            feeds: context.config.provider == .feeds ? feedReports(context, now: now) : nil)
        if json {
            let encoder = StateJSONEncoder(prettyPrinted: true)
            Output.print(String(decoding: try! encoder.encode(report), as: UTF8.self))
            return 0
        }
        func age(_ d: Date?) -> String { d.map { "\(Clock.local($0)) (\(RelativeAge.describe($0, now: now)))" } ?? "never" }
        var lines = [
            "Provider:      \(report.provider)",
            "Host:          \(hostLine(holder))",
            "Last reload:   \(age(report.last_reload))\(report.last_result.map { ", \($0)" } ?? "")",
            "Next reload:   \(report.next_reload.map { Clock.local($0) } ?? (pid == nil ? "when a host runs" : "only on request"))",
            "Budget:        \(report.reloads_last_24h) of \(report.daily_budget) reloads used in the last 24 hours",
            "Cache:         \(report.cache_headlines) headlines, fetched \(age(report.cache_fetched_at))",
        ]
        if let error = report.last_error { lines.append("Last error:    \(error)") }
        let feeds = report.feeds ?? []
        let failing = feeds.filter { $0.state == "failing" }
        if !failing.isEmpty {
            lines.append("Failing feeds: \(failing.count) of \(feeds.count): \(failing.map { TerminalText.safe($0.url) }.joined(separator: ", "))")
        }
        for feed in feeds {
            let state = switch feed.state {
            case "ok": "ok, \(feed.headlines) headlines"
            case "failing": "FAILING: \(feed.error ?? "no answer")"
            default: "not fetched yet"
            }
            lines.append("Feed:          \(TerminalText.safe(feed.url)): \(TerminalText.safe(state))")
        }
        Output.print(lines.joined(separator: "\n"))
        return 0
    }

    static func hostLine(_ holder: HostClient.Holder) -> String {
        switch holder {
        case let .host(pid): "running (pid \(pid))"
        case let .oneShot(pid, command): "not running; `headlines \(command)` (pid \(pid)) is reloading (start a host with `headlines run`)"
        case .none, .unverified: "not running (start it with `headlines run`)"
        }
    }
}
