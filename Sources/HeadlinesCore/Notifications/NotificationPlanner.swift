import FoundationEssentials

/// Decides which headlines of a successful reload become notifications. Pure: the seen set goes
/// in and comes back updated.
public enum NotificationPlanner {
    public struct Plan: Equatable, Sendable {
        /// To post, oldest first, so the newest ends on top of the stack.
        public var post: [Headline]
        /// New headlines not posted one by one: a "N more headlines" summary when above 0.
        public var more: Int
        public var seen: SeenSet
    }

    /// - First run (empty seen set): at most the single newest headline; the rest are marked seen.
    /// - Otherwise the unseen, unmuted ones; above `maxPerRefresh`, the newest `maxPerRefresh`
    ///   and a summary of the rest.
    /// A headline is unseen when neither its id nor its `SeenSet.titleLinkKey` is in the set.
    /// Muted sources (and mute-words) are marked seen and never posted, and so are the headlines
    /// `alerts` does not let through (its policy: `none`, or `alerts` without a keyword match):
    /// changing the policy later brings back no flood of old headlines. A feed or a `widget`
    /// not seen before in a set that is not empty is silent on its first reload, as a first run
    /// is. At most `maxPerHour` notifications in any hour (a summary counts as one): what comes
    /// past it is held and counted into the next summary there is room for.
    public static func plan(fetched: [Headline], seen: SeenSet, muted: MutedSources,
                            alerts: KeywordAlerts = KeywordAlerts(), widget: String? = nil,
                            maxPerRefresh: Int, maxPerHour: Int = .max, now: Date) -> Plan {
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
        var more = (firstRun ? 0 : newestFirst.count - posted.count) + seen.held
        // The cap: what does not fit in this hour goes into the summary, or is held when not
        // even the summary fits.
        let lastHour = seen.postedTimes.filter { $0 <= now && now.timeIntervalSince($0) < 3600 }
        let room = max(0, maxPerHour - lastHour.count)
        if posted.count + (more > 0 ? 1 : 0) > room {
            let kept = max(0, room - 1)
            more += posted.count - kept
            posted = Array(posted.prefix(kept))
        }
        updated.held = room == 0 ? more : 0
        if room == 0 { more = 0 }
        // Older times are dropped only when something is posted: a reload that posts nothing
        // leaves the set, and so seen.json, as it was.
        let sent = posted.count + (more > 0 ? 1 : 0)
        if sent > 0 { updated.postedTimes = lastHour + Array(repeating: now, count: sent) }
        return Plan(post: posted.reversed(), more: more, seen: updated)
    }
}
