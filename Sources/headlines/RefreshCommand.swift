import FoundationEssentials
import HeadlinesCore


import HeadlinesCommandLine
import HeadlinesDesktop
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `headlines refresh`: WidgetCenter.reloadTimelines for this world. Asks the running host to
/// reload now (its Reload method on the session bus, which starts it by activation) and waits to
/// see it publish; says until when when the budget defers it. With no bus, or no host the bus
/// can start, `headlines-fetch refresh` does one budgeted reload and says so.
enum RefreshCommand {
    static func run(_ context: AppContext) -> Int32 {
        let clocks = HostClock.now()
        let now = clocks.wall
        let warn: @Sendable (String) -> Void = { Output.error("headlines: warning: \($0)") }
        var ledger = ReloadIfDue.loadLedger(LedgerStore(path: context.paths.ledgerFile), at: clocks, warn: warn)
        if case let .deferred(until, by) = ReloadIfDue.explicitDecision(at: clocks, ledger: &ledger,
                                                                        dailyBudget: context.config.dailyBudget) {
            let why: String
            switch by {
            case .dailyBudget:
                why = "all \(context.config.dailyBudget) reloads of the daily budget were used in the last 24 hours"
            case .server:
                why = "the server asked to wait (Retry-After or X-RateLimit-Reset, capped at 24 hours)"
            }
            Output.print("Not reloading: \(why); the next reload can happen at \(LocalTime.stamp(until)).")
            return 0
        }
        let store = PublishedTimelineStore(path: context.paths.publishedTimelineFile)
        let before = store.load()?.generation ?? -1
        let widget = context.arguments.widget ?? ""
        var reply = BusClient.call("Reload", [.string(widget)])
        if reply == .noHost, context.host.holder() == .none {
            // A bus with no service file to activate (a build tree): start the host ourselves.
            reply = StartCommand.startWithoutActivation(args: context.arguments, environment: context.environment)
                ? BusClient.awaitHost { BusClient.call("Reload", [.string(widget)], start: false) } : reply
        }
        switch reply {
        case let .values(answer):
            let pid = BusClient.status(widget: widget)?["pid"]?.number.map { "pid \($0)" } ?? "on the bus"
            if answer.first?.text == "deferred" {
                Output.print("Not reloading: the host (\(pid)) defers it until \(TerminalText.safe(answer.dropFirst().first?.text ?? "later")).")
                return 0
            }
            return waitForHost(context, store: store, before: before, since: now, who: pid)
        // No host to ask: one budgeted reload in headlines-fetch, which fetches.
        case .noBus, .noHost: return NetworkCommands.hand(["refresh"] + context.arguments.passThrough, environment: context.environment)
        case let .failed(message):
            Output.error("headlines: the host refused the reload: \(TerminalText.safe(message)).")
            return 1
        }
    }

    /// The host said it started: wait to see it publish the new timeline.
    private static func waitForHost(_ context: AppContext, store: PublishedTimelineStore, before: Int, since now: Date,
                                    who: String) -> Int32 {
        let deadline = Date().addingTimeInterval(context.config.timeout + 5)
        while Date() < deadline {
            usleep(50_000)
            if let published = store.load(), published.generation != before,
               let last = published.lastReload, last >= now.addingTimeInterval(-1) {
                // lastResult is a whole sentence on a failure: its own period ends this line.
                Output.print("Reloaded by the host (\(who)): \(NewsError.clause(TerminalText.safe(published.lastResult ?? "done"))).")
                return published.timeline.entries.first?.content.error == nil ? 0 : 1
            }
        }
        Output.print("Asked the host (\(who)) to reload; it has not finished yet: see `headlines status`.")
        return 0
    }
}
