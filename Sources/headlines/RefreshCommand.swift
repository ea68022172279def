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
/// reload now (SIGUSR1) and waits to see it publish; says until when when the budget defers it.
/// With no host running it does one budgeted reload itself.
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
        let pid: Int32
        switch context.host.holder() {
        case .none: return reloadHere(context)
        case let .host(found): pid = found
        case let .oneShot(other, command): return waitForOneShot(context, pid: other, command: command)
        case let .refused(sentence):
            Output.error("headlines: \(sentence)")
            return 1
        case let .unverified(other):
            Output.error("headlines: the host lock (\(context.paths.hostLockFile)) is held\(other.map { " by pid \($0)" } ?? ""), which is not a `headlines run` of yours; not signalling it: run refresh again in a moment.")
            return 1
        }
        let store = PublishedTimelineStore(path: context.paths.publishedTimelineFile)
        let before = store.load()?.generation ?? -1
        // One widget of several: say which, so the host's other widgets do not reload too.
        if context.arguments.widget != nil { try? RefreshRequest(paths: context.paths).leave() }
        guard case .sent = context.host.ask(.refresh) else {
            Output.error("headlines: could not signal the host (pid \(pid)): restart it with `headlines run`.")
            return 1
        }
        let deadline = Date().addingTimeInterval(context.config.timeout + 5)
        while Date() < deadline {
            usleep(50_000)
            if let published = store.load(), published.generation != before,
               let last = published.lastReload, last >= now.addingTimeInterval(-1) {
                // lastResult is a whole sentence on a failure: its own period ends this line.
                Output.print("Reloaded by the host (pid \(pid)): \(NewsError.clause(TerminalText.safe(published.lastResult ?? "done"))).")
                return published.timeline.entries.first?.content.error == nil ? 0 : 1
            }
        }
        Output.print("Asked the host (pid \(pid)) to reload; it has not finished yet: see `headlines status`.")
        return 0
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
    private static func reloadHere(_ context: AppContext) -> Int32 {
        let lock = HostLock(path: context.paths.hostLockFile, role: .oneShot)
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
        let partial = result.timeline.entries.first?.content.partialFailures ?? []
        Output.print("Reloaded: \(NumberText.counted(result.fetched?.count ?? 0, "headline"))\(ReloadWords.failedFeeds(partial)) (no host is running; start one with `headlines run`).")
        return 0
    }
}
