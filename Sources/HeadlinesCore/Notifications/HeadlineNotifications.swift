import FoundationEssentials

/// Turns each successful reload into notifications: plans with `NotificationPlanner`, saves the
/// seen set BEFORE posting (a crash may drop a notification but never repeats one), then hands
/// the plan to the notifier, which returns at once.
public final class HeadlineNotifications {
    public let notifier: Notifier
    public let seenFile: JSONStateFile<SeenSet>
    public let mutedFile: JSONStateFile<MutedSources>
    public var maxPerRefresh: Int
    /// `[notify] keywords` and `mute-words` (`KeywordAlerts`); the host sets them again when the
    /// config changes, so they apply from the next reload on.
    public var alerts = KeywordAlerts()
    private let warn: (String) -> Void
    /// Kept in memory too, so a read-only or full disk still never repeats a notification.
    private var seen: SeenSet?

    /// `fileSystem`: where the seen set and the muted sources are read and written (a recording
    /// fake in tests).
    public init(notifier: Notifier, paths: XDGPaths, maxPerRefresh: Int,
                fileSystem: any StateFileSystem = PosixFileSystem(), warn: @escaping (String) -> Void) {
        self.notifier = notifier
        self.seenFile = JSONStateFile(seenSetAt: paths.seenFile, fileSystem: fileSystem)
        self.mutedFile = JSONStateFile(mutedSourcesAt: paths.mutedFile, fileSystem: fileSystem)
        self.maxPerRefresh = maxPerRefresh
        self.warn = warn
    }

    /// Returns the plan it carried out (for logs and tests).
    @discardableResult
    public func reloaded(_ fetched: [Headline], now: Date) -> NotificationPlanner.Plan {
        let current = seen ?? seenFile.load(now: now, warn: warn) ?? SeenSet()
        let muted = (mutedFile.load(now: now, warn: warn) ?? MutedSources()).with(words: alerts.muteWords)
        let plan = NotificationPlanner.plan(fetched: fetched, seen: current, muted: muted, keywords: alerts.keywords,
                                            maxPerRefresh: maxPerRefresh, now: now)
        seen = plan.seen
        do { try seenFile.store(plan.seen) } catch {
            warn("Could not save the seen-headlines list (\(error)); keeping it in memory: free disk space or fix permissions.")
        }
        if !plan.post.isEmpty || plan.more > 0 { notifier.post(plan.post, more: plan.more, now: now) }
        return plan
    }

    /// Adds a source to the muted list. Returns false when it was already muted.
    @discardableResult
    public func mute(_ source: String, now: Date) throws -> Bool {
        var muted = mutedFile.load(now: now, warn: warn) ?? MutedSources()
        guard muted.mute(source) else { return false }
        try mutedFile.store(muted)
        return true
    }
}
