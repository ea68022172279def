import FoundationEssentials
import HeadlinesCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Runs the widget host on the GLib loop until SIGTERM or SIGINT: `headlines-host` (what
/// `headlines run` and bars start) and `headlines demo` both come through here.
public enum HostRunner {
    /// The host's setup from a loaded config.
    public static func setup(_ loaded: LoadedConfig) -> HostSetup {
        let config = loaded.config
        var setup = HostSetup(providerName: config.provider.displayName,
                              layout: TimelineLayout(interval: config.interval, rotate: config.rotate,
                                                     rotationTail: config.timeout + config.rotate),
                              scheduler: ReloadScheduler(budget: RefreshBudget(dailyLimit: config.dailyBudget)),
                              maxLength: config.maxLength, sourceIdentity: config.sourceIdentity)
        setup.alerts = KeywordAlerts(config)
        setup.quietHours = config.quietHours
        setup.syncAccount = config.syncAccount?.label
        return setup
    }

    /// The config file now names other widgets: this process starts again (same PID, same
    /// arguments) to serve them, as a restart would.
    @GLibActor
    static func restart(serving widgets: [String?], instead served: [String?], environment: [String: String]) {
        let names: ([String?]) -> String = { list in list.map { $0 ?? "(no [widget] groups)" }.joined(separator: ", ") }
        HostLog.info("config file saved: the widgets are now \(names(widgets)) (were \(names(served))); starting again to serve them")
        ProcessLauncher.replace(with: [ProcessLauncher.selfPath] + CommandLine.arguments.dropFirst(), environment: environment)
        HostLog.error("could not start again (\(String(cString: strerror(errno)))): restart the host to serve the new widgets")
    }

    /// How long a fetch child may run past the source's own `timeout` before the host kills it:
    /// its image step (downloads and decoding, one deadline), then room for starting up,
    /// parsing, and writing the cache and status.
    public static let childDeadlineMargin = NotificationImageStore.stepSeconds + 10

    /// The reloader of a real host: `headlines-reload` with the same global
    /// options (and `--widget NAME` for a widget), the API keys in its environment only.
    @GLibActor
    public static func childReloader(args: Arguments, environment: [String: String], loaded: LoadedConfig) -> ChildReloader {
        var childArgs = args
        childArgs.widget = loaded.widget
        // --verbose too: the child then says how it sandboxed itself.
        let verbose = args.verbose ? ["--verbose"] : []
        return ChildReloader(argv: [Binaries.path(of: "headlines-reload")] + childArgs.passThrough + verbose,
                             environment: environment, deadline: loaded.config.timeout + childDeadlineMargin)
    }

    /// Validates the config, then runs a host with notifications until it quits: one `WidgetHost`
    /// per widget, all on this one loop; when another host runs it quits at once. `extra` runs on the loop for each widget's
    /// host before it starts. A host a bar started (`--from-bar`) whose config does not load
    /// publishes the config-error bar lines and waits for a config that loads (`ConfigWait`)
    /// instead of exiting, so the bars keep showing why.
    public static func run(args: Arguments, environment: [String: String],
                           reloader: @escaping @Sendable @GLibActor (LoadedConfig) -> HostReloader,
                           extra: @escaping @Sendable @GLibActor (WidgetHost, LoadedConfig) -> Void = { _, _ in }) -> Int32 {
        // One host serves every widget, whichever one the bar that started it shows.
        var args = args
        args.widget = nil
        let hostArgs = args
        // SIGHUP re-reads the config file with the same command-line overrides; a widget that is
        // gone from the file keeps its old configuration until the host restarts, and so does
        // every widget while the file itself is gone (deleted, or mid-replace): the defaults
        // would switch to another source and spend the budget on it.
        let configure: @Sendable (String?) -> WidgetHost.Configure = { widget in
            {
                let all = try LoadedConfig.loadWidgets(args: hostArgs, environment: environment, fileMustExist: true)
                guard let loaded = all.first(where: { $0.widget == widget }) else {
                    throw ConfigError("the widget \(widget ?? "(default)") is no longer in the config; restart the host to drop it")
                }
                return setup(loaded)
            }
        }
        var initial: [LoadedConfig] = []
        var configError: ConfigError?
        do { initial = try LoadedConfig.loadWidgets(args: hostArgs, environment: environment) } catch {
            guard hostArgs.fromBar else { HostLog.error(error.message); return 2 }
            configError = error
        }
        if initial.count > 1 {
            HostLog.info("serving \(initial.count) widgets: \(initial.compactMap(\.widget).joined(separator: ", "))")
            for note in initial[0].plan.notes { HostLog.info(note) }
        }
        signal(SIGPIPE, SIG_IGN)
        let status = ExitStatus()
        let bus = BusService()
        let start: @Sendable @GLibActor (LoadedConfig) -> Void = { loaded in
            do {
                // A widget on the same source as another shows that one's cache: no request.
                let mirrors = loaded.plan.share(of: loaded.widget)?.mirrors ?? false
                // The default widget (the first by name, as for every command without --widget)
                // also fills the usual bar folder, which bars without --widget read.
                let isDefault = loaded.widget != nil && loaded.widget == loaded.plan.shares.first?.widget
                let host = try WidgetHost(paths: loaded.paths, reloader: mirrors ? CacheReloader(paths: loaded.paths) : reloader(loaded),
                                          setup: setup(loaded),
                                          alsoPublishIn: isDefault ? XDGPaths(environment: environment).barLinesDir : nil,
                                          configure: configure(loaded.widget))
                host.logLabel = loaded.widget
                if loaded.config.notifyEnabled {
                    var menuArgs = hostArgs
                    menuArgs.widget = loaded.widget
                    let notifications = HostNotifications(host: host, paths: loaded.paths,
                                                          maxPerRefresh: loaded.config.maxPerRefresh, maxPerHour: loaded.config.maxPerHour,
                                                          menuCommand: [Binaries.path(of: "headlines")] + menuArgs.passThrough + ["menu"],
                                                          environment: environment)
                    host.onReload = { notifications.reloaded($0) }
                    host.heldNotifications = { notifications.held(now: HostClock.now().wall) }
                    HostRegistry.keep(notifications)
                }
                // An edited config applies at once, as SIGHUP does (keywords, mute-words, ...), to
                // the widgets whose settings it changed; widgets added or removed (the first
                // [widget] group too) make the process start again to serve the new set.
                let label = loaded.widget.map { "[\($0)] " } ?? ""
                let served = loaded.plan.shares.map(\.widget)
                var applied = loaded.config
                HostRegistry.keep(ConfigFileWatch(path: loaded.file, onGone: {
                    HostLog.warning(label + "\(loaded.file) is gone; keeping the current configuration until it is back")
                }, onChange: { [weak host] in
                    // A file that does not load is left to the re-read, which says why.
                    let now = try? LoadedConfig.loadWidgets(args: hostArgs, environment: environment, fileMustExist: true)
                    if let now, now.map(\.widget) != served { return restart(serving: now.map(\.widget), instead: served, environment: environment) }
                    let mine = now?.first { $0.widget == loaded.widget }?.config
                    if let mine, mine == applied { return } // another widget's group changed
                    if let mine { applied = mine }
                    host?.reconfigure(reason: "config file saved")
                }))
                extra(host, loaded)
                bus.add(host, widget: loaded.widget)
                HostRegistry.keep(host)
                host.start()
                if host.exitStatus != 0 { status.value.store(host.exitStatus, ordering: .relaxed) }
            } catch {
                HostLog.error("\(error)")
                status.value.store(2, ordering: .relaxed)
                MainLoop.quit()
            }
        }
        // Several widgets: one process serves them all, so the usual runtime folder's host.lock
        // is taken first, as the process's own. Bars of two widgets that start hosts at once
        // then never split the widgets between two processes.
        let startAll: @Sendable @GLibActor ([LoadedConfig]) -> Void = { all in
            let served = XDGPaths(environment: environment).servedWidgetsFile
            guard all.count > 1 || all.first?.widget != nil else {
                unlink(served) // an earlier host's list of widgets, which this config has none of
                return all.forEach(start)
            }
            let processLock = HostLock(path: XDGPaths(environment: environment).hostLockFile)
            HostRegistry.keep(processLock)
            let acquired: Bool
            do { acquired = try processLock.acquire() } catch {
                HostLog.error("\(error)")
                status.value.store(1, ordering: .relaxed)
                return MainLoop.quit()
            }
            if acquired {
                // What a bar asking for a widget no host serves names instead (`headlines-bar`).
                let names = all.compactMap(\.widget).joined(separator: "\n") + "\n"
                try? PosixFileSystem.runtimeFolder.writeAtomically(Data(names.utf8), to: served)
                return all.forEach(start)
            }
            HostLog.info("another host (\(HostLock.holder(path: processLock.path).map { "pid \($0.pid)" } ?? "another process")) serves the widgets; nothing to do")
            MainLoop.quit()
        }
        // The bus name first: it is the single-instance rule, and a second host stops here, saying
        // whose it is. With no session bus (a bare tty) the host runs without one, under its lock.
        let whenOwned: @Sendable @GLibActor (@escaping @Sendable @GLibActor () -> Void) -> Void = { then in
            HostRegistry.keep(bus)
            bus.own { outcome in
                switch outcome {
                case .owned: then()
                case .noBus:
                    HostLog.info("no session bus: running without the org.headlines.Headlines interface")
                    then()
                case let .taken(pid):
                    HostLog.info("another host (\(pid.map { "pid \($0)" } ?? "another process")) owns \(BusService.name) on the session bus; nothing to do")
                    MainLoop.quit()
                }
            }
        }
        MainLoop.run { [initial, configError] in
            if !initial.isEmpty { return whenOwned { startAll(initial) } }
            guard let configError else { return }
            // A config that does not load: the name and the lock are held while the bars show why
            // (so the bus's activation is answered, and no second host starts), then handed over.
            whenOwned {
                let paths = XDGPaths(environment: environment)
                let lock = HostLock(path: paths.hostLockFile)
                HostRegistry.keep(lock)
                guard (try? lock.acquire()) == true else {
                    HostLog.info("another host holds \(paths.hostLockFile); nothing to do")
                    return MainLoop.quit()
                }
                let wait = ConfigWait(args: hostArgs, environment: environment, error: configError,
                                      onError: { error in
                                          HostLog.error("\(error.message) The bars say so until the config loads.")
                                          ConfigWait.publishError(error, paths: paths)
                                      },
                                      onLoaded: { loaded in
                                          lock.release()
                                          startAll(loaded)
                                      })
                HostRegistry.keep(wait)
                wait.start()
            }
        }
        return status.value.load(ordering: .relaxed)
    }
}

/// The host's exit status, set on the loop and read after it ends.
final class ExitStatus: Sendable { let value = Atomic<Int32>(0) }

/// Keeps loop objects alive for the life of the loop (their callbacks hold them weakly).
@GLibActor
public enum HostRegistry {
    public static var objects: [AnyObject] = []
    public static func keep(_ object: AnyObject) { objects.append(object) }
}
