import FoundationEssentials

/// Turns each successful reload into notifications: plans with `NotificationPlanner`, saves the
/// seen set BEFORE posting, then hands the plan to the notifier, which returns at once. A
/// headline is posted only once the disk holds it as seen: when the seen set cannot be saved
/// (a full disk), nothing is posted, so a crash can never repeat a notification; the headlines
/// stay new and are posted by the first reload whose save succeeds.
public final class HeadlineNotifications {
    public let notifier: Notifier
    public let seenFile: JSONStateFile<SeenSet>
    public let mutedFile: JSONStateFile<MutedSources>
    public var maxPerRefresh: Int
    /// `[notify] keywords` and `mute-words` (`KeywordAlerts`); the host sets them again when the
    /// config changes, so they apply from the next reload on.
    public var alerts = KeywordAlerts()
    /// `[notify] quiet-hours`: set again by the host when the config changes.
    public var quietHours: QuietHours?
    /// New headlines not shown because the reload came during quiet hours; posted as one
    /// summary by the first reload after them. Kept in memory: a restart forgets the count
    /// (the headlines themselves stay in the bars and the menu).
    public private(set) var heldForQuietHours = 0
    private let warn: (String) -> Void
    /// The seen set as last saved (or loaded), so the file is read once per process.
    private var seen: SeenSet?
    /// Saving the seen set failed last time: said once, until a save succeeds.
    private var saveFailing = false

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
        do {
            // A reload that brought nothing new leaves the set as it was: no write.
            if plan.seen != current || saveFailing { try seenFile.store(plan.seen) }
        } catch {
            if !saveFailing {
                warn("Could not save the seen-headlines list (\(error)), so no notification is shown until it can be: free disk space or fix permissions.")
            }
            saveFailing = true
            seen = current
            return NotificationPlanner.Plan(post: [], digests: [], seen: current)
        }
        saveFailing = false
        seen = plan.seen
        if let quietHours, quietHours.contains(now) {
            heldForQuietHours += plan.post.count + plan.more
            return NotificationPlanner.Plan(post: [], digests: [], seen: plan.seen)
        }
        if heldForQuietHours > 0 {
            notifier.postHeld(HeldHeadlines(count: heldForQuietHours, reason: .quietHours), now: now)
            heldForQuietHours = 0
        }
        if !plan.post.isEmpty || plan.more > 0 { notifier.post(plan.post, digests: plan.digests, now: now) }
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
