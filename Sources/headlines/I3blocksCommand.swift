import BarFormats
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HeadlinesCore
import HeadlinesHTTP
import HeadlinesSources
import HeadlinesDesktop

/// `headlines i3blocks`: the one-shot block for `interval=N` (and clicks, which re-run it with
/// BLOCK_BUTTON). Acts on the click first, then prints full_text, short_text and color from the
/// host's published timeline or the cache. It reloads only when no host runs and a reload is due
/// under the budget. `--persist` hands over to the continuous form.
enum I3blocksCommand {
    static func run(_ context: AppContext, persist: Bool, argv: [String]) -> Int32 {
        if context.environment["BLOCK_BUTTON"] == nil { BarBinary.execIfPossible(argv, context: context) }
        let pango = context.arguments.pango || context.environment["markup"] == "pango"
        if persist {
            let json = context.arguments.json || context.environment["format"] == "json"
            return BarCommand.run(context, format: json ? .i3blocksJSON : .i3blocksRaw, pango: pango, argv: argv)
        }
        if let button = context.environment["BLOCK_BUTTON"].flatMap(Int.init) {
            act(on: button, context: context)
        }
        reloadIfDue(context)
        let state = ShownHeadlines.state(context)
        if let current = state.current {
            ShownRecordFile(i3blocksIn: context.paths.runtimeHeadlinesDir, environment: context.environment).record(HeadlineKey.of(id: current.id))
        }
        Output.print(I3blocksRenderer.oneShot(state, maxLength: context.config.maxLength, pango: pango), terminator: "")
        return 0
    }

    /// i3bar buttons: 1 open, 2 refresh, 3 menu, 4 previous, 5 next. Quiet: the block's stdout is
    /// its text. The menu is started detached, so the block does not wait for the user.
    static func act(on button: Int, context: AppContext) {
        switch button {
        case 1:
            // What this block printed last: the host may have rotated since.
            if let key = ShownRecordFile(i3blocksIn: context.paths.runtimeHeadlinesDir, environment: context.environment).key() {
                _ = OpenCommand.open(id: key, context)
            } else if let current = ShownHeadlines.state(context).current {
                do { try URLLauncher.open(current.url) } catch { Output.error("headlines: \(error.description)") }
            }
        case 2:
            // A running host reloads (the bus's Reload); with none, this block does, unless a
            // one-shot already reloading under the lock has its answer on the way.
            switch BusClient.call("Reload", [.string(context.arguments.widget ?? "")], start: false) {
            case .values, .failed: break
            case .noBus, .noHost: if context.host.holder() == .none { reloadIfDue(context, force: true) }
            }
        case 3:
            ProcessLauncher.spawn([ProcessLauncher.selfPath] + context.arguments.passThrough + ["menu"])
        case 4: _ = ShownHeadlines.rotate(context, by: -1)
        case 5: _ = ShownHeadlines.rotate(context, by: 1)
        default: break
        }
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
