import FoundationEssentials

/// Decides which headlines of a successful reload become notifications. Pure: the seen set goes
/// in and comes back updated.
public enum NotificationPlanner {
    public struct Plan: Equatable, Sendable {
        /// To post, oldest first, so the newest ends on top of the stack.
        public var post: [Headline]
        /// New headlines past `maxPerRefresh`: one digest per source, the source of the newest first.
        public var digests: [SourceDigest]
        /// Headlines past `maxPerHour` (and those held from before) that one summary counts.
        public var overCap: Int
        public var seen: SeenSet

        public init(post: [Headline], digests: [SourceDigest], overCap: Int = 0, seen: SeenSet) {
            self.post = post
            self.digests = digests
            self.overCap = overCap
            self.seen = seen
        }

        /// New headlines not posted one by one.
        public var more: Int { digests.reduce(0) { $0 + $1.count } + overCap }
    }

    /// - First run (empty seen set): at most the single newest headline; the rest are marked seen.
    /// - Otherwise the unseen, unmuted ones; above `maxPerRefresh`, the newest `maxPerRefresh`
    ///   and one digest per source of the rest.
    /// A headline is unseen when neither its id nor its `SeenSet.titleLinkKey` is in the set.
    /// Muted sources (and mute-words) are marked seen and never posted, and so are the headlines
    /// `alerts` does not let through (its policy: `none`, or `alerts` without a keyword match):
    /// changing the policy later brings back no flood of old headlines. A feed or a `widget`
    /// not seen before in a set that is not empty is silent on its first reload, as a first run
    /// is. At most `maxPerHour` notifications in any hour (each digest counts as one). When the
    /// headlines and digests do not all fit, the newest headlines that do are posted and one
    /// `overCap` summary counts the rest; when not even that fits, they are held (`seen.held`)
    /// and counted into the next summary there is room for. `quiet` (quiet hours, when nothing
    /// is posted): the plan only counts what is new, and leaves the cap's times and held count
    /// as they were.
    public static func plan(fetched: [Headline], seen: SeenSet, muted: MutedSources,
                            alerts: KeywordAlerts = KeywordAlerts(), widget: String? = nil,
                            maxPerRefresh: Int, maxPerHour: Int = .max, quiet: Bool = false, now: Date) -> Plan {
        let firstRun = seen.isEmpty
        var updated = seen
        let known = seen.origins
        func isNew(_ origin: String?) -> Bool {
            guard !firstRun, let origin, let known else { return false }
            return known[origin] == nil
        }
        let widgetIsNew = isNew(widget.map(SeenSet.originKey))
        var fresh: [Headline] = []
        var keys = Set<String>()
        var fetchedKeys = Set<String>()
        for headline in fetched {
            let titleLink = SeenSet.titleLinkKey(headline)
            updated.touch(headline.id, at: now)
            updated.touch(titleLink, at: now)
            fetchedKeys.formUnion([headline.id, titleLink])
            guard !seen.contains(headline.id) && !seen.contains(titleLink),
                  keys.insert(headline.id).inserted, keys.insert(titleLink).inserted else { continue }
            if !muted.isMuted(headline) && !widgetIsNew && !isNew(headline.feed) && alerts.notifies(headline) {
                fresh.append(headline)
            }
        }
        var origins = known ?? [:]
        for origin in Set(fetched.compactMap(\.feed) + [widget.map(SeenSet.originKey)].compactMap { $0 })
            where origins[origin].map({ now.timeIntervalSince($0) >= SeenSet.touchInterval }) ?? true {
            origins[origin] = now
        }
        updated.origins = origins
        updated.prune(now: now, keeping: fetchedKeys)
        let newestFirst = fresh.sorted { $0.publishedAt > $1.publishedAt }
        let limit = firstRun ? 1 : max(1, maxPerRefresh)
        var posted = Array(newestFirst.prefix(limit))
        var digests = SourceDigest.of(firstRun ? [] : newestFirst.dropFirst(limit))
        if quiet { return Plan(post: posted.reversed(), digests: digests, seen: updated) }
        var overCap = seen.held
        // The cap: when all does not fit in this hour, the digests and what was held before
        // become one summary beside the newest headlines there is room for; when not even the
        // summary fits, everything is held for the next one.
        let lastHour = seen.postedTimes.filter { $0 <= now && now.timeIntervalSince($0) < 3600 }
        let room = max(0, maxPerHour - lastHour.count)
        if posted.count + digests.count + (overCap > 0 ? 1 : 0) > room {
            let kept = max(0, room - 1)
            overCap += posted.count - kept + digests.reduce(0) { $0 + $1.count }
            posted = Array(posted.prefix(kept))
            digests = []
        }
        updated.held = room == 0 ? overCap : 0
        if room == 0 { overCap = 0 }
        // Older times are dropped only when something is posted: a reload that posts nothing
        // leaves the set, and so seen.json, as it was.
        let sent = posted.count + digests.count + (overCap > 0 ? 1 : 0)
        if sent > 0 { updated.postedTimes = lastHour + Array(repeating: now, count: sent) }
        return Plan(post: posted.reversed(), digests: digests, overCap: overCap, seen: updated)
    }
}
