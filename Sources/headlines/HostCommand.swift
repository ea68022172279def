import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HeadlinesCore
import HeadlinesDesktop

/// `headlines run`: the widget host on the GLib main loop, until SIGTERM or SIGINT. Bars run the
/// same host (or stand by to take over) through `runLoop(_:extra:)`.
enum HostCommand {
    static func run(_ context: AppContext) -> Int32 {
        runLoop(context) { host in
            if context.arguments.verbose {
                host.onEntry = { entry, _ in
                    let n = entry.content.headlines.count
                    HostLog.info("entry \(n == 0 ? 0 : entry.content.index % n + 1)/\(n) [\(entry.content.freshness.rawValue)]: \(entry.content.current.map { TerminalText.safe($0.title) } ?? "nothing to show")")
                }
            }
        }
    }

    /// Validates the config, then runs a host (or a stand-by that takes over) with notifications
    /// on the GLib loop until it quits. `extra` runs on the loop before the host starts.
    static func runLoop(_ context: AppContext, extra: @escaping @Sendable @GLibActor (WidgetHost) -> Void) -> Int32 {
        let initial = context
        // SIGHUP re-reads the config file with the same command-line overrides.
        let configure: WidgetHost.Configure = {
            let fresh = try AppContext.load(args: initial.arguments, environment: initial.environment)
            var setup = try fresh.hostSetup()
            setup.sourceIdentity = fresh.config.sourceIdentity
            return setup
        }
        do { _ = try configure() } catch {
            Output.error("headlines: \(error)")
            return 2
        }
        signal(SIGPIPE, SIG_IGN)
        MainLoop.run {
            do {
                let host = try WidgetHost(paths: initial.paths, configure: configure)
                if initial.config.notifyEnabled {
                    let notifications = HostNotifications(host: host, paths: initial.paths,
                                                          maxPerRefresh: initial.config.maxPerRefresh,
                                                          menuCommand: [ProcessLauncher.selfPath] + initial.arguments.passThrough + ["menu"])
                    host.onReload = { notifications.reloaded($0) }
                    HostRegistry.keep(notifications)
                }
                extra(host)
                HostRegistry.keep(host)
                host.start()
            } catch {
                HostLog.error("\(error)")
                MainLoop.quit()
            }
        }
        return 0
    }
}

/// Keeps loop objects alive for the life of the loop (their callbacks hold them weakly).
@GLibActor
enum HostRegistry {
    static var objects: [AnyObject] = []
    static func keep(_ object: AnyObject) { objects.append(object) }
}
