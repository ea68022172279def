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
    /// Muted sources (and mute-words) are marked seen and never posted. With `keywords`, only
    /// the headlines matching one are posted; the others are marked seen all the same, so that
    /// dropping a keyword later does not bring back a flood of old headlines.
    public static func plan(fetched: [Headline], seen: SeenSet, muted: MutedSources,
                            keywords: KeywordMatcher = KeywordMatcher(), maxPerRefresh: Int, now: Date) -> Plan {
        let firstRun = seen.isEmpty
        var updated = seen
        var fresh: [Headline] = []
        var ids = Set<String>()
        for headline in fetched {
            updated.touch(headline.id, at: now)
            guard !seen.contains(headline.id) && ids.insert(headline.id).inserted else { continue }
            if !muted.isMuted(headline) && (keywords.isEmpty || keywords.matches(headline)) { fresh.append(headline) }
        }
        updated.prune(now: now, keeping: Set(fetched.map(\.id)))
        let newestFirst = fresh.sorted { $0.publishedAt > $1.publishedAt }
        let limit = firstRun ? 1 : max(1, maxPerRefresh)
        let posted = Array(newestFirst.prefix(limit))
        let more = firstRun ? 0 : newestFirst.count - posted.count
        return Plan(post: posted.reversed(), more: more, seen: updated)
    }
}
