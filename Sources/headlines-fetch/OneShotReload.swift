import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesDesktop
import HeadlinesGLib
import HeadlinesHTTP
import HeadlinesSources
#if canImport(Glibc)
import Glibc
#endif

/// A budgeted reload outside the host, under the host lock, within the budget as the host
/// would: for `headlines refresh` when no host can be reached, and for the i3blocks one-shot
/// block when no host runs (`reload-if-due`, `reload-forced`, which print nothing on stdout).
enum OneShotReload {
    /// `refresh`, handed over by the CLI once the bus could not reach a host.
    static func refresh(_ context: AppContext) -> Int32 {
        let why = context.environment["DBUS_SESSION_BUS_ADDRESS"] == nil
            ? "no session bus" : "no host on the session bus, and none could be started"
        return reloadWithoutHost(context, why: why)
    }

    /// The bus cannot reach a host: one budgeted reload here, unless a host or a one-shot holds
    /// the lock (a host started without a bus reloads on its own schedule).
    static func reloadWithoutHost(_ context: AppContext, why: String) -> Int32 {
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
    static func waitForOneShot(_ context: AppContext, pid: Int32, command: String) -> Int32 {
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
    static func reloadHere(_ context: AppContext, why: String) -> Int32 {
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
        let partial = result.timeline.entries.first?.content.partialFailures ?? []
        Output.print("Reloaded: \(NumberText.counted(result.fetched?.count ?? 0, "headline"))\(ReloadWords.failedFeeds(partial)) (\(why), so this command reloaded itself; start a host with `headlines run`).")
        return 0
    }

    /// With no host running: reload when the schedule says so (or `force`, for a middle click),
    /// always within the budget, holding the host lock while it does (`ReloadIfDue`, the same
    /// rule a starting host follows).
    static func reloadIfDue(_ context: AppContext, force: Bool = false) {
        let paths = context.paths
        guard HostLock.holder(path: paths.hostLockFile) == nil else { return }
        let now = HostClock.now()
        let warn: @Sendable (String) -> Void = { Output.error("headlines: warning: \($0)") }
        let store = LedgerStore(path: paths.ledgerFile)
        var ledger = ReloadIfDue.loadLedger(store, at: now, warn: warn)
        let fetchedAt = context.cache.load(now: now.wall, warn: warn)?.fetchedAt
        guard ReloadIfDue.isDue(at: now, ledger: &ledger, cacheFetchedAt: fetchedAt, interval: context.config.interval,
                                dailyBudget: context.config.dailyBudget, force: force) else { return }
        // Under the host lock: a host starting meanwhile, or a `refresh`, waits for it.
        let lock = HostLock(path: paths.hostLockFile)
        guard lock.tryAcquire(), let setup = try? context.timelineProvider() else { return }
        let result = blockingAwait {
            await ReloadIfDue.reload(provider: setup.provider, dailyBudget: context.config.dailyBudget, ledgerStore: store,
                                     tally: setup.tally, at: now, after: { HostClock.now() }, warn: warn)
        }
        if let failure = result?.failure { Output.error("headlines: \(failure.message)") }
    }
}

extension AppContext {
    /// What a reload outside the host runs: the timeline provider on the configured source, and
    /// the tally of the key-bearing requests its transport sends.
    func timelineProvider() throws(ConfigError) -> (provider: HeadlinesTimelineProvider, tally: RequestTally) {
        let tally = RequestTally()
        let refresher = Refresher(provider: try makeProvider(tally: tally), cache: cache, statusStore: statusStore)
        var provider = HeadlinesTimelineProvider(refresher: refresher, layout: HostRunner.setup(loaded).layout,
                                                 mutedFile: StateFile(path: paths.mutedFile, what: "muted-sources"),
                                                 warn: { HostLog.warning($0) })
        provider.muteWords = KeywordMatcher(config.muteWords)
        return (provider, tally)
    }

    /// The configured provider on the libcurl transport; `tally` counts its key-bearing requests.
    func makeProvider(tally: RequestTally? = nil) throws(ConfigError) -> HeadlineProvider {
        try ReloadSource.provider(config: try configWithSubscriptions(), environment: environment, paths: paths, tally: tally,
                                  warn: { Output.error("headlines: warning: \($0)") })
    }

    /// The config with its subscriptions read in (ReloadSource.withSubscriptions says how).
    func configWithSubscriptions(recordFailure: Bool = true) throws(ConfigError) -> Config {
        try ReloadSource.withSubscriptions(config, home: environment["HOME"], configFile: configFile, statusStore: statusStore,
                                           recordFailure: recordFailure,
                                           warn: { Output.error("headlines: warning: \($0)") })
    }
}
