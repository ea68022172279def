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
        return setup
    }

    /// The reloader of a real host: `headlines fetch --for-host` with the same global options,
    /// the API keys in its environment only.
    @GLibActor
    public static func childReloader(args: Arguments, environment: [String: String], config: Config) -> ChildReloader {
        ChildReloader(argv: [Binaries.path(of: "headlines"), "fetch", "--for-host"] + args.passThrough,
                      environment: environment, deadline: config.timeout + 30)
    }

    /// Validates the config, then runs a host (or a stand-by that takes over) with notifications
    /// until it quits. `standBy: false`: quit when another host runs (a host a bar started).
    /// `extra` runs on the loop before the host starts. A host a bar started (`--from-bar`) whose
    /// config does not load publishes the config-error bar lines and waits for a config that
    /// loads (`ConfigWait`) instead of exiting, so the bars keep showing why.
    public static func run(args: Arguments, environment: [String: String], standBy: Bool = true,
                           reloader: @escaping @Sendable @GLibActor (LoadedConfig) -> HostReloader,
                           extra: @escaping @Sendable @GLibActor (WidgetHost) -> Void = { _ in }) -> Int32 {
        // SIGHUP re-reads the config file with the same command-line overrides.
        let configure: WidgetHost.Configure = {
            setup(try LoadedConfig.load(args: args, environment: environment))
        }
        var initial: LoadedConfig?
        var configError: ConfigError?
        do { initial = try LoadedConfig.load(args: args, environment: environment) } catch {
            guard args.fromBar else { HostLog.error(error.message); return 2 }
            configError = error
        }
        signal(SIGPIPE, SIG_IGN)
        let status = Atomic<Int32>(0)
        let start: @Sendable @GLibActor (LoadedConfig) -> Void = { loaded in
            do {
                let host = try WidgetHost(paths: loaded.paths, reloader: reloader(loaded), configure: configure)
                if loaded.config.notifyEnabled {
                    let notifications = HostNotifications(host: host, paths: loaded.paths,
                                                          maxPerRefresh: loaded.config.maxPerRefresh,
                                                          menuCommand: [Binaries.path(of: "headlines")] + args.passThrough + ["menu"])
                    host.onReload = { notifications.reloaded($0) }
                    HostRegistry.keep(notifications)
                }
                // An edited config applies at once, as SIGHUP does (keywords, mute-words, ...).
                HostRegistry.keep(ConfigFileWatch(path: loaded.file) { [weak host] in
                    let reason = "\(PathText.lastComponent(of: loaded.file)) changed"
                    HostLog.info("\(reason): re-reading the configuration")
                    host?.reconfigure(reason: reason)
                })
                extra(host)
                HostRegistry.keep(host)
                host.start(standBy: standBy)
                status.store(host.exitStatus, ordering: .relaxed)
            } catch {
                HostLog.error("\(error)")
                status.store(2, ordering: .relaxed)
                MainLoop.quit()
            }
        }
        MainLoop.run { [initial, configError] in
            if let initial { return start(initial) }
            guard let configError else { return }
            let paths = XDGPaths(environment: environment)
            let wait = ConfigWait(args: args, environment: environment, error: configError,
                                  onError: { error in
                                      HostLog.error("\(error.message) The bars say so until the config loads.")
                                      ConfigWait.publishError(error, paths: paths)
                                  },
                                  onLoaded: { start($0) })
            HostRegistry.keep(wait)
            wait.start()
        }
        return status.load(ordering: .relaxed)
    }
}

/// Keeps loop objects alive for the life of the loop (their callbacks hold them weakly).
@GLibActor
public enum HostRegistry {
    public static var objects: [AnyObject] = []
    public static func keep(_ object: AnyObject) { objects.append(object) }
}

/// Where the other `headlines` programs are: beside this one (the build folder, /usr/bin), then
/// in ../libexec/headlines (a packaged install), else by name on PATH.
public enum Binaries {
    public static func path(of name: String) -> String {
        let exe = ProcessLauncher.selfPath
        let dir = PathText.directory(of: exe)
        for candidate in [dir + "/" + name, PathText.directory(of: dir) + "/libexec/headlines/" + name]
            where access(candidate, X_OK) == 0 {
            return candidate
        }
        return name
    }
}
