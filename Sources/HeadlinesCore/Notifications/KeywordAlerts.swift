import FoundationEssentials

/// What `[notify] policy` lets through: every new headline, only keyword matches, or none.
public enum NotifyPolicy: String, Equatable, Sendable, CaseIterable {
    case all, alerts, none
}

/// The config's choice of what is notified, carried together from the config to the host, the
/// notifications and the bars: `[notify] keywords` (bars mark matches), `[notify] mute-words`
/// (matches are hidden everywhere, like a muted source), `[notify] policy` and
/// `[source] feed-policies`.
public struct KeywordAlerts: Equatable, Sendable {
    public var keywords: KeywordMatcher
    public var muteWords: KeywordMatcher
    /// `[notify] policy`; nil when the config does not say, which keeps what keywords always did:
    /// with keywords only the matches are notified, without every new headline.
    public var policy: NotifyPolicy?
    /// `[source] feed-policies`: a feed's own policy, by its configured URL (`Headline.feed`).
    public var feedPolicies: [String: NotifyPolicy]

    public init(keywords: KeywordMatcher = KeywordMatcher(), muteWords: KeywordMatcher = KeywordMatcher(),
                policy: NotifyPolicy? = nil, feedPolicies: [String: NotifyPolicy] = [:]) {
        self.keywords = keywords
        self.muteWords = muteWords
        self.policy = policy
        self.feedPolicies = feedPolicies
    }

    /// From `Config.keywords`, `muteWords`, `notifyPolicy` and `feedPolicies`.
    public init(_ config: Config) {
        self.init(keywords: KeywordMatcher(config.keywords), muteWords: KeywordMatcher(config.muteWords),
                  policy: config.notifyPolicy, feedPolicies: config.feedPolicies)
    }

    /// The policy that applies to `headline`: its feed's own, else `policy`, else the one keywords imply.
    public func policy(for headline: Headline) -> NotifyPolicy {
        headline.feed.flatMap { feedPolicies[$0] } ?? policy ?? (keywords.isEmpty ? .all : .alerts)
    }

    /// True when `headline`, new and not muted, may be notified: `alerts` needs a keyword match
    /// (so with no keywords it lets nothing through), `none` lets nothing through.
    public func notifies(_ headline: Headline) -> Bool {
        switch policy(for: headline) {
        case .all: return true
        case .alerts: return keywords.matches(headline)
        case .none: return false
        }
    }
}
