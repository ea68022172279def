import BarFormats
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HeadlinesCore
import HeadlinesCommandLine
import HeadlinesGLib
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
                do { try URLLauncher.open(current.url) } catch { Output.clickFailed(error.description) }
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

    /// With no host running: `headlines-fetch` reloads when the schedule says so (or `force`,
    /// for a middle click), within the budget; its words go to stderr, never into the block.
    static func reloadIfDue(_ context: AppContext, force: Bool = false) {
        guard HostLock.holder(path: context.paths.hostLockFile) == nil else { return }
        let argv = [Binaries.path(of: "headlines-fetch"), force ? "reload-forced" : "reload-if-due"] + context.arguments.passThrough
        Exec.runQuietly(argv, environment: context.environment)
    }
}
