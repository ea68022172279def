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
    /// `[notify] max-per-hour`.
    public var maxPerHour: Int
    /// `[notify] keywords`, `mute-words`, `policy` and `[source] feed-policies` (`KeywordAlerts`);
    /// the host sets them again when the config changes, so they apply from the next reload on.
    public var alerts = KeywordAlerts()
    /// The `[widget NAME]` served, whose first reload is silent (nil without widget groups).
    private let widget: String?
    /// `[notify] quiet-hours`: set again by the host when the config changes.
    public var quietHours: QuietHours?
    /// New headlines not shown because the reload came during quiet hours; posted as one
    /// summary by the first reload after them. Kept in memory: a restart forgets the count
    /// (the headlines themselves stay in the bars and the menu).
    public private(set) var heldForQuietHours = 0
    private let warn: (String) -> Void
    /// The seen set as last saved (or loaded): what a reload starts from when the file cannot be
    /// read.
    private var seen: SeenSet?
    /// Saving the seen set failed last time: said once, until a save succeeds.
    private var saveFailing = false

    /// `fileSystem`: where the seen set and the muted sources are read and written (a recording
    /// fake in tests).
    public init(notifier: Notifier, paths: XDGPaths, maxPerRefresh: Int, maxPerHour: Int = Config().maxPerHour,
                fileSystem: any StateFileSystem = PosixFileSystem(), warn: @escaping (String) -> Void) {
        self.notifier = notifier
        self.seenFile = JSONStateFile(seenSetAt: paths.seenFile, fileSystem: fileSystem)
        self.mutedFile = JSONStateFile(mutedSourcesAt: paths.mutedFile, fileSystem: fileSystem)
        self.maxPerRefresh = maxPerRefresh
        self.maxPerHour = maxPerHour
        widget = paths.widget
        self.warn = warn
    }

    /// Returns the plan it carried out (for logs and tests).
    @discardableResult
    public func reloaded(_ fetched: [Headline], now: Date) -> NotificationPlanner.Plan {
        // Read at every reload, not once: the widgets of one host share the file, each through
        // its own instance, and one that kept its own copy would save over what the others saved.
        let current = seenFile.load(now: now, warn: warn) ?? seen ?? SeenSet()
        let muted = (mutedFile.load(now: now, warn: warn) ?? MutedSources()).with(words: alerts.muteWords)
        let quiet = quietHours?.contains(now) ?? false
        let plan = NotificationPlanner.plan(fetched: fetched, seen: current, muted: muted, alerts: alerts, widget: widget,
                                            maxPerRefresh: maxPerRefresh, maxPerHour: maxPerHour, quiet: quiet, now: now)
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
        if quiet {
            heldForQuietHours += plan.post.count + plan.more
            return NotificationPlanner.Plan(post: [], digests: [], seen: plan.seen)
        }
        if heldForQuietHours > 0 {
            notifier.postHeld(HeldHeadlines(count: heldForQuietHours, reason: .quietHours), now: now)
            heldForQuietHours = 0
        }
        if !plan.post.isEmpty || !plan.digests.isEmpty { notifier.post(plan.post, digests: plan.digests, now: now) }
        if plan.overCap > 0 { notifier.postHeld(HeldHeadlines(count: plan.overCap, reason: .hourlyCap), now: now) }
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
