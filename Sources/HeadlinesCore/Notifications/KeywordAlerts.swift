import FoundationEssentials

/// The config's keyword state, carried together from the config to the host, the notifications
/// and the bars: `[notify] keywords` (only matches are notified; bars mark them) and
/// `[notify] mute-words` (matches are hidden everywhere, like a muted source).
public struct KeywordAlerts: Equatable, Sendable {
    public var keywords: KeywordMatcher
    public var muteWords: KeywordMatcher

    public init(keywords: KeywordMatcher = KeywordMatcher(), muteWords: KeywordMatcher = KeywordMatcher()) {
        self.keywords = keywords
        self.muteWords = muteWords
    }

    /// From `Config.keywords` and `Config.muteWords`.
    public init(_ config: Config) {
        self.init(keywords: KeywordMatcher(config.keywords), muteWords: KeywordMatcher(config.muteWords))
    }
}
