import FoundationEssentials

/// Decides which headlines of a successful reload become notifications. Pure: the seen set goes
/// in and comes back updated.
public enum NotificationPlanner {
    public struct Plan: Equatable, Sendable {
        /// To post, oldest first, so the newest ends on top of the stack.
        public var post: [Headline]
        /// New headlines past `maxPerRefresh`: one digest per source, the source of the newest first.
        public var digests: [SourceDigest]
        public var seen: SeenSet

        public init(post: [Headline], digests: [SourceDigest], seen: SeenSet) {
            self.post = post
            self.digests = digests
            self.seen = seen
        }

        /// New headlines not posted one by one.
        public var more: Int { digests.reduce(0) { $0 + $1.count } }
    }

    /// - First run (empty seen set): at most the single newest headline; the rest are marked seen.
    /// - Otherwise the unseen, unmuted ones; above `maxPerRefresh`, the newest `maxPerRefresh`
    ///   and one digest per source of the rest.
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
        let rest = firstRun ? [] : newestFirst.dropFirst(limit)
        return Plan(post: posted.reversed(), digests: SourceDigest.of(rest), seen: updated)
    }
}
