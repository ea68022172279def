import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesSources

import HeadlinesDesktop

/// `headlines status [--json]`: a page read at a glance: which config, what the host is doing,
/// how much budget is left and when the next reload may go out, what is muted, what failed.
enum StatusCommand {
    struct Report: Encodable {
        /// This config's provider (not the running host's, which may have another config).
        var provider: String
        var config_file: String
        var host_running: Bool
        var host_pid: Int32?
        /// The running host's provider, and whether it differs from this config's.
        var host_provider: String?
        var host_has_other_config: Bool
        var last_reload: Date?
        var last_result: String?
        var next_reload: Date?
        /// When the budget or the server's Retry-After next allows a reload, and which holds it
        /// back ("daily-budget", "retry-after"); nil when one may go out now.
        var next_reload_allowed: Date?
        var next_reload_limit: String?
        /// An explicit refresh the host deferred, until when and by which limit.
        var deferred_until: Date?
        var deferred_by: String?
        var muted_sources: [String]
        var reloads_last_24h: Int
        var daily_budget: Int
        var cache_fetched_at: Date?
        var cache_headlines: Int
        var last_error: String?
        var last_error_at: Date?
        /// Set when the runtime folder or the host lock is not ours or not private: what and what to do.
        var runtime_refused: String?
        var feeds: [FeedReport]?
        /// `[widget NAME]`: the widget this report is about, every widget of the config, the
        /// widget whose fetch this one shows (when it shares a source) and how the budget is split.
        var widget: String?
        var widgets: [String]?
        var shares_fetch_of: String?
        var budget_shared: [String]?
        /// Set when `interval` would spend the budget early, so the budget paces the reloads.
        var budget_paces: String?
        /// The running host's notifications held back (Do Not Disturb, quiet hours), and the end
        /// of the quiet hours it is in.
        var held_for_dnd: Int?
        var held_for_quiet_hours: Int?
        var quiet_hours_until: Date?
    }

    struct FeedReport: Encodable {
        var url: String
        var ok: Bool
        /// "ok", "failing" (its last fetch failed), "gone" (it answered 410: no longer fetched)
        /// or "not fetched yet" (never tried).
        var state: String
        var headlines: Int
        var last_success: Date?
        var error: String?
        /// When a scheduled reload next fetches it, and why ("max-age", "Expires", "ttl",
        /// "sy:updatePeriod", "Retry-After", "interval"); both nil: at every reload.
        var next_fetch: Date?
        var next_fetch_reason: String?
        /// Where a permanent redirect moved it: its requests go there; `feeds` should say so.
        var moved_to: String?
    }

    static func feedReports(_ context: AppContext, now: Date) -> [FeedReport] {
        let states = FeedStateStore(path: context.paths.feedStateFile).load(now: now, warn: { _ in }).feeds
        // The subscription file as the next reload will read it; when it cannot be read the
        // configured feeds alone (the error itself is the last reload's, shown above).
        let feeds = (try? context.configWithSubscriptions(recordFailure: false))?.feeds ?? context.config.feeds
        return feeds.map { url in
            let state = states[url.absoluteString]
            let failing = state?.lastError != nil && state?.lastErrorAt != nil
            let ok = state != nil && !failing && state?.lastSuccess != nil
            let word = state?.goneAt != nil ? "gone" : ok ? "ok" : (failing ? "failing" : "not fetched yet")
            // A time already past is the next reload's: shown as at every reload.
            let next = state?.nextFetch.flatMap { $0 > now ? $0 : nil }
            return FeedReport(url: url.absoluteString, ok: ok, state: word, headlines: state?.headlines.count ?? 0,
                              last_success: state?.lastSuccess, error: state?.lastError, next_fetch: next,
                              next_fetch_reason: next == nil ? nil : state?.nextFetchReason,
                              moved_to: state?.movedTo?.absoluteString)
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
        var refusal: String?
        do { _ = try RuntimeFolder.inspect(context.paths.runtimeHeadlinesDir) } catch { refusal = "\(error)" }
        // The running host, asked on the bus (never started for this).
        let host = BusClient.status(widget: context.arguments.widget ?? "")
        let pid = host?["pid"]?.number.map(Int32.init)
        let date: (String) -> Date? = { key in host?[key]?.real.map { Date(timeIntervalSince1970: $0) } }
        let hostProvider = host?["provider"]?.text
        let deferredBy = host?["deferred_by"].flatMap { ReloadDecision.Limit(rawValue: $0.text) }
        let ours = context.config.provider.displayName
        let otherConfig = hostProvider.map { $0 != ours } ?? false
        let decision = ReloadScheduler(budget: RefreshBudget(dailyLimit: context.config.dailyBudget)).decide(now: now, ledger: ledger)
        let (allowed, limit): (Date?, ReloadDecision.Limit?) = if case let .deferred(until, by) = decision { (until, by) } else { (nil, nil) }
        let muted = StateFile<MutedSources>(path: context.paths.mutedFile, what: "muted-sources").load(now: now, warn: warn)?.sources ?? []
        let report = Report(
            provider: ours, config_file: context.configFile,
            host_running: pid != nil, host_pid: pid, host_provider: hostProvider, host_has_other_config: otherConfig,
            last_reload: status.lastAttempt, last_result: status.lastFailure == nil ? (status.lastSuccess == nil ? nil : "ok") : "failed",
            next_reload: date("next_reload"), next_reload_allowed: allowed, next_reload_limit: limit?.rawValue,
            deferred_until: date("deferred_until"), deferred_by: deferredBy?.rawValue, muted_sources: muted,
            reloads_last_24h: ledger.attempts(inWindowEndingAt: now), daily_budget: context.config.dailyBudget,
            cache_fetched_at: cached?.fetchedAt, cache_headlines: cached?.headlines.count ?? 0,
            last_error: status.lastFailure?.message, last_error_at: status.lastFailure?.at,
            runtime_refused: refusal,
            feeds: context.config.provider == .feeds ? feedReports(context, now: now) : nil,
            widget: context.paths.widget, widgets: context.paths.widget == nil ? nil : context.plan.shares.compactMap(\.widget),
            shares_fetch_of: context.plan.share(of: context.paths.widget).flatMap { $0.mirrors ? $0.source : nil },
            budget_shared: context.plan.notes.isEmpty ? nil : context.plan.notes,
            budget_paces: RefreshBudget(dailyLimit: context.config.dailyBudget).pacingNote(interval: context.config.interval),
            held_for_dnd: host?["held_dnd"]?.number, held_for_quiet_hours: host?["held_quiet"]?.number,
            quiet_hours_until: date("quiet_until"))
        if json {
            let encoder = StateJSONEncoder.headlines(prettyPrinted: true)
            Output.print(String(decoding: try! encoder.encode(report), as: UTF8.self))
            return 0
        }
        let page = StatusPage(report: report, now: now, configExists: FileManager.default.fileExists(atPath: context.configFile),
                              deferredBy: deferredBy, limit: limit)
        Output.print(page.lines().joined(separator: "\n"))
        return 0
    }
}
