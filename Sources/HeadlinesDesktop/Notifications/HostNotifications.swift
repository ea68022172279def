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

    /// `menuCommand`: argv run (never through a shell) when a digest or a summary of held headlines is clicked.
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

    /// What is held back now, for `headlines status`.
    public func held(now: Date) -> HeldCounts {
        let quiet = notifications.quietHours.flatMap { $0.contains(now) ? $0.end(after: now) : nil }
        return HeldCounts(doNotDisturb: notifier.heldForDoNotDisturb, quietHours: notifications.heldForQuietHours, quietUntil: quiet)
    }

    public func reloaded(_ result: TimelineResult) {
        guard let fetched = result.fetched else { return }
        notifier.useImages(result.images)
        if let host {
            notifications.alerts = host.setup.alerts
            notifications.quietHours = host.setup.quietHours
        }
        let now = HostClock.now().wall
        let heldBefore = notifications.heldForQuietHours
        let plan = notifications.reloaded(fetched, now: now)
        if let quiet = notifications.quietHours, notifications.heldForQuietHours > heldBefore {
            HostLog.info("quiet hours (\(quiet.description)): holding \(NumberText.counted(notifications.heldForQuietHours, "new headline")) for one summary after \(LocalTime.stamp(quiet.end(after: now)))")
        } else if heldBefore > 0 && notifications.heldForQuietHours == 0 {
            HostLog.info("quiet hours are over; summarising \(NumberText.counted(heldBefore, "held headline"))")
        }
        // A reload that posted nothing still brings the summary after Do Not Disturb, unless
        // quiet hours keep it for later.
        let quietNow = notifications.quietHours?.contains(now) ?? false
        if plan.post.isEmpty && plan.more == 0 && heldBefore == 0 && !quietNow {
            notifier.postHeldIfQuietEnded()
        }
        if !plan.post.isEmpty || plan.more > 0 {
            let inDigests = plan.more - plan.overCap
            let digests = plan.digests.isEmpty ? "" : " and \(NumberText.counted(plan.digests.count, "digest")) of \(inDigests) more"
            let overCap = plan.overCap == 0 ? "" : " and a summary of \(plan.overCap) past [notify] max-per-hour"
            HostLog.info("notifying \(NumberText.counted(plan.post.count, "new headline"))" + digests + overCap)
        }
        if plan.seen.held > 0 {
            HostLog.info("holding \(NumberText.counted(plan.seen.held, "new headline")) past [notify] max-per-hour for the next summary")
        }
    }
}
