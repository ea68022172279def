import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesDesktop

/// `headlines status` for people: one line per fact, labels aligned, server text made safe.
struct StatusPage {
    let report: StatusCommand.Report
    let now: Date
    let configExists: Bool
    let deferredBy: ReloadDecision.Limit?
    let limit: ReloadDecision.Limit?

    private func age(_ d: Date?) -> String {
        d.map { "\(LocalTime.stamp($0)) (\(RelativeAge.describe($0, now: now)))" } ?? "never"
    }

    private static func row(_ label: String, _ value: String) -> String {
        (label + ":").padding(15) + value
    }

    func lines() -> [String] {
        let r = report
        var lines = [
            Self.row("Config", TerminalText.safe(r.config_file) + (configExists ? "" : " (not found: defaults in use)")),
        ]
        if let widget = r.widget {
            let others = (r.widgets ?? []).filter { $0 != widget }
            lines.append(Self.row("Widget", widget + (others.isEmpty ? "" : " (also: \(others.joined(separator: ", ")); pick one with --widget)")))
            if let source = r.shares_fetch_of { lines.append(Self.row("Source", "the same as widget \(source), whose fetch it shows: no requests of its own")) }
        }
        for note in r.budget_shared ?? [] { lines.append(Self.row("Shared", note)) }
        lines += [
            Self.row("Provider", TerminalText.safe(r.provider)),
            Self.row("Host", hostLine),
            Self.row("Last reload", "\(age(r.last_reload))\(r.last_result.map { ", \($0)" } ?? "")"),
            Self.row("Next reload", nextReload),
        ]
        if let until = r.deferred_until, until > now {
            let by = deferredBy.map { " by \($0.phrase)" } ?? ""
            lines.append(Self.row("Deferred", "a refresh was held back\(by) until \(LocalTime.stamp(until))"))
        }
        lines.append(Self.row("Budget", "\(r.reloads_last_24h) of \(r.daily_budget) reloads used in the last 24 hours"))
        if let pacing = r.budget_paces { lines.append(Self.row("Pacing", pacing)) }
        lines.append(Self.row("Cache", "\(NumberText.counted(r.cache_headlines, "headline")), fetched \(age(r.cache_fetched_at))"))
        let held = HeldCounts(doNotDisturb: r.held_for_dnd ?? 0, quietHours: r.held_for_quiet_hours ?? 0, quietUntil: r.quiet_hours_until)
        if let sentence = held.sentence { lines.append(Self.row("Held back", sentence)) }
        lines.append(Self.row("Muted", r.muted_sources.isEmpty ? "none" : r.muted_sources.map(TerminalText.safe).joined(separator: ", ")))
        if let error = r.last_error { lines.append(Self.row("Last error", TerminalText.safe(error))) }
        if let refusal = r.runtime_refused { lines.append(Self.row("Runtime", TerminalText.safe(refusal))) }
        let feeds = r.feeds ?? []
        let failing = feeds.filter { $0.state == "failing" }
        if !failing.isEmpty {
            lines.append("Failing feeds: \(failing.count) of \(feeds.count): \(failing.map { TerminalText.safe($0.url) }.joined(separator: ", "))")
        }
        for feed in feeds {
            let state = switch feed.state {
            case "ok": "ok, " + NumberText.counted(feed.headlines, "headline")
            case "failing": "FAILING: \(Self.withoutFeedName(feed.error ?? "the last try failed", url: feed.url))"
            case "gone": "GONE: it answered 410 Gone, so reloads no longer fetch it; remove it from [source] feeds"
            default: "not tried yet"
            }
            var line = "\(feed.url): \(state)"
            if let moved = feed.moved_to { line += "; moved permanently to \(moved); update `feeds`" }
            if feed.state == "ok" || feed.state == "failing" { line += "; \(Self.nextFetch(feed))" }
            lines.append(Self.row("Feed", TerminalText.safe(line)))
        }
        return lines
    }

    /// When a scheduled reload next fetches a feed, and what holds it back until then.
    static func nextFetch(_ feed: StatusCommand.FeedReport) -> String {
        guard let next = feed.next_fetch else { return "fetched at every reload" }
        return "next fetch \(LocalTime.stamp(next)) (\(feed.next_fetch_reason ?? "schedule"))"
    }

    private var hostLine: String {
        let line: String
        if let pid = report.host_pid {
            line = "running (pid \(pid))"
        } else if report.runtime_refused != nil {
            line = "not running; the runtime folder is refused (see Runtime below)"
        } else {
            line = "not running (the bus starts it when a bar or a command needs it, or start it with `headlines run`)"
        }
        guard report.host_has_other_config, let theirs = report.host_provider else { return line }
        return line + "; it was started with another config (provider \(TerminalText.safe(theirs))), so its reloads are not this config's"
    }

    private var nextReload: String {
        if let allowed = report.next_reload_allowed, let limit {
            let why = limit == .dailyBudget ? "the daily budget is spent" : "the server's Retry-After asks to wait"
            return "not before \(LocalTime.stamp(allowed)) (\(why))"
        }
        if let next = report.next_reload { return LocalTime.stamp(next) }
        return report.host_running ? "only on request" : "when a host runs (`headlines run`) or on `headlines refresh`"
    }

    /// A feed's error sentence names the feed; on its own line after the URL that is said once.
    static func withoutFeedName(_ sentence: String, url: String) -> String {
        let prefix = "The feed \(url) "
        return sentence.hasPrefix(prefix) ? "it " + sentence.dropFirst(prefix.count) : sentence
    }
}

extension String {
    /// Left-aligned in `width` columns (at least one space after).
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
