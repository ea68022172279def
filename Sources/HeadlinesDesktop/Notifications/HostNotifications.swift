import FoundationEssentials
import HeadlinesCore

/// Connects the host to notifications: each successful reload goes through
/// `HeadlineNotifications` (seen set, flood control, muted sources) to libnotify. Lives on the
/// loop; clicks arrive on the notification worker and hop back here.
@GLibActor
public final class HostNotifications {
    private let notifications: HeadlineNotifications
    public let notifier: LibnotifyNotifier
    /// Read at each reload for its current keywords (the config may have changed since).
    private weak var host: WidgetHost?

    /// `menuCommand`: argv run (never through a shell) when the "N more headlines" summary is clicked.
    public init(host: WidgetHost, paths: XDGPaths, maxPerRefresh: Int, maxPerHour: Int, menuCommand: [String], environment: [String: String]) {
        let notifier = LibnotifyNotifier()
        self.notifier = notifier
        self.host = host
        notifications = HeadlineNotifications(notifier: notifier, paths: paths, maxPerRefresh: maxPerRefresh, maxPerHour: maxPerHour,
                                              warn: { HostLog.warning($0) })
        notifier.onMute = { [weak self] source in
            Task { @GLibActor in
                guard let self else { return }
                do {
                    if try self.notifications.mute(source, now: HostClock.now().wall) {
                        HostLog.info("muted source \(TerminalText.safe(source)); `headlines unmute` undoes it")
                    }
                    WidgetHost.mutedChangedEverywhere()
                } catch {
                    HostLog.warning("Could not save the muted sources (\(error)): check the state folder's permissions.")
                }
            }
        }
        if host.setup.syncAccount != nil {
            notifier.onRead = { [weak host] headline in
                Task { @GLibActor in host?.markRead(headline) }
            }
        }
        notifier.onMore = { token in
            ProcessLauncher.spawnDetached(menuCommand, environment: ProcessLauncher.environment(ProcessLauncher.userEnvironment(environment),
                                                                                                activation: .token(token)))
        }
    }

    public func reloaded(_ result: TimelineResult) {
        guard let fetched = result.fetched else { return }
        notifier.useImages(result.images)
        if let host { notifications.alerts = host.setup.alerts }
        let plan = notifications.reloaded(fetched, now: HostClock.now().wall)
        if !plan.post.isEmpty || plan.more > 0 {
            HostLog.info("notifying \(plan.post.count) new headline\(plan.post.count == 1 ? "" : "s")\(plan.more > 0 ? " and a summary of \(plan.more) more" : "")")
        }
        if plan.seen.held > 0 {
            HostLog.info("holding \(NumberText.counted(plan.seen.held, "new headline")) past [notify] max-per-hour for the next summary")
        }
    }
}
