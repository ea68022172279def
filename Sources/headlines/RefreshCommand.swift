import FoundationEssentials
import HeadlinesCore
import HeadlinesHTTP
import HeadlinesSources
import HeadlinesDesktop
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `headlines refresh`: WidgetCenter.reloadTimelines for this world. Asks the running host to
/// reload now (its Reload method on the session bus, which starts it by activation) and waits to
/// see it publish; says until when when the budget defers it. With no bus, or no host the bus
/// can start, it does one budgeted reload itself and says so.
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
            Output.print("Not reloading: \(why); the next reload can happen at \(Clock.local(until)).")
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
        case .noBus: return reloadWithoutHost(context, why: "no session bus")
        case .noHost: return reloadWithoutHost(context, why: "no host on the session bus, and none could be started")
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

    /// The bus cannot reach a host: one budgeted reload here, unless a host or a one-shot holds
    /// the lock (a host started without a bus reloads on its own schedule).
    private static func reloadWithoutHost(_ context: AppContext, why: String) -> Int32 {
        switch context.host.holder() {
        case .none: return reloadHere(context, why: why)
        case let .host(pid):
            Output.error("headlines: a host runs (pid \(pid)) but \(why) reaches it: it reloads on its own schedule; run it under a session bus to control it.")
            return 1
        case let .oneShot(other, command): return waitForOneShot(context, pid: other, command: command)
        case let .refused(sentence):
            Output.error("headlines: \(sentence)")
            return 1
        case let .unverified(other):
            Output.error("headlines: the host lock (\(context.paths.hostLockFile)) is held\(other.map { " by pid \($0)" } ?? ""), which is not a `headlines run` of yours: run refresh again in a moment.")
            return 1
        }
    }

    /// No host, but a one-shot (`i3blocks`, another `refresh`) is reloading under the lock: it has no
    /// signal handler, so it is waited for, never signalled, and its result reported.
    private static func waitForOneShot(_ context: AppContext, pid: Int32, command: String) -> Int32 {
        let who = command.isEmpty ? "pid \(pid)" : "`headlines \(command)`, pid \(pid)"
        Output.print("A one-shot block is reloading now (\(who)); waiting for it instead of signalling it.")
        let deadline = Date().addingTimeInterval(context.config.timeout + 5)
        while Date() < deadline, case .oneShot(pid, _) = context.host.holder() { usleep(50_000) }
        let status = context.statusStore.load(now: Date(), warn: { _ in })
        if case .oneShot(pid, _) = context.host.holder() {
            Output.print("It has not finished yet: see `headlines status`.")
            return 0
        }
        if let failure = status.lastFailure {
            Output.error("headlines: \(failure.message)")
            return 1
        }
        Output.print("Reloaded by the one-shot (\(who)); no host is running (start one with `headlines run`).")
        return 0
    }

    /// No host: take the lock for one reload, within the budget, like the host would.
    private static func reloadHere(_ context: AppContext, why: String) -> Int32 {
        let lock = HostLock(path: context.paths.hostLockFile)
        do {
            guard try lock.acquire() else { Output.error("headlines: a host just started; run refresh again."); return 1 }
        } catch {
            Output.error("headlines: \(error)")
            return 1
        }
        let setup: (provider: HeadlinesTimelineProvider, tally: RequestTally)
        do { setup = try context.timelineProvider() } catch { Output.error("headlines: \(error)"); return 2 }
        let store = LedgerStore(path: context.paths.ledgerFile)
        let budget = context.config.dailyBudget
        let result = blockingAwait {
            await ReloadIfDue.reload(provider: setup.provider, dailyBudget: budget, ledgerStore: store, tally: setup.tally,
                                     at: HostClock.now(), after: { HostClock.now() },
                                     warn: { Output.error("headlines: warning: \($0)") })
        }
        guard let result else { return 1 }
        if let failure = result.failure { Output.error("headlines: \(failure.message)"); return 1 }
        Output.print("Reloaded: \(NumberText.counted(result.fetched?.count ?? 0, "headline")) (\(why), so this command reloaded itself; start a host with `headlines run`).")
        return 0
    }
}

/// Times for people, in the local zone (`LocalTime`): "14:03:09" today, "2026-11-30 09:15" else.
enum Clock {
    static func local(_ date: Date, now: Date = Date()) -> String {
        let t = LocalTime.brokenDown(date), today = LocalTime.brokenDown(now)
        let time = NumberText.padded(Int(t.tm_hour), width: 2) + ":" + NumberText.padded(Int(t.tm_min), width: 2)
        if t.tm_year == today.tm_year && t.tm_yday == today.tm_yday {
            return time + ":" + NumberText.padded(Int(t.tm_sec), width: 2)
        }
        return String(t.tm_year + 1900) + "-" + NumberText.padded(Int(t.tm_mon) + 1, width: 2) + "-"
            + NumberText.padded(Int(t.tm_mday), width: 2) + " " + time
    }
}
