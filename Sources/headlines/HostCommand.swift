import Foundation
import HeadlinesCore
import HeadlinesDesktop

/// `headlines run`: the widget host on the GLib main loop, until SIGTERM or SIGINT.
enum HostCommand {
    static func run(_ context: AppContext) -> Int32 {
        let initial = context
        // SIGHUP re-reads the config file with the same command-line overrides.
        let configure: WidgetHost.Configure = {
            let fresh = try AppContext.load(args: initial.arguments, environment: initial.environment)
            return try fresh.hostSetup()
        }
        do { _ = try configure() } catch {
            Output.error("headlines: \(error)")
            return 2
        }
        signal(SIGPIPE, SIG_IGN)
        MainLoop.run {
            do {
                let host = try WidgetHost(paths: initial.paths, configure: configure)
                if initial.arguments.verbose {
                    host.onEntry = { entry, _ in
                        let n = entry.content.headlines.count
                        HostLog.info("entry \(n == 0 ? 0 : entry.content.index % n + 1)/\(n) [\(entry.content.freshness.rawValue)]: \(entry.content.current?.title ?? "nothing to show")")
                    }
                }
                if initial.config.notifyEnabled {
                    let notifications = HostNotifications(host: host, paths: initial.paths,
                                                          maxPerRefresh: initial.config.maxPerRefresh,
                                                          menuCommand: [ProcessLauncher.selfPath] + initial.arguments.passThrough + ["menu"])
                    host.onReload = { notifications.reloaded($0) }
                    HostRegistry.keepNotifications(notifications)
                }
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

/// Keeps the host alive for the life of the loop (the loop's callbacks hold it weakly).
@GLibActor
enum HostRegistry {
    static var hosts: [WidgetHost] = []
    static var notifications: [HostNotifications] = []
    static func keep(_ host: WidgetHost) { hosts.append(host) }
    static func keepNotifications(_ n: HostNotifications) { notifications.append(n) }
}
