import FoundationEssentials

/// One news headline: the single value that is fetched, cached, listed, shown on a bar and notified.
public struct Headline: Codable, Hashable, Sendable {
    /// Stable identity across fetches: the provider's id where it has one (APITube), else the URL.
    public var id: String
    public var title: String
    public var url: URL
    /// Where it comes from: a domain ("bbc.co.uk") or a publication name ("BBC News").
    public var source: String
    public var publishedAt: Date
    public var imageURL: URL?
    public var summary: String?
    /// The discussion page (Hacker News, Reddit, Lobsters), when the source has one apart from the link.
    public var commentsURL: URL?
    /// The configured feed URL it came from (`[source] feeds`), for the per-feed notification
    /// policy and the silence of a newly added feed; nil for every other provider. Optional, so
    /// caches written before it existed still decode.
    public var feed: String?

    public init(id: String, title: String, url: URL, source: String, publishedAt: Date,
                imageURL: URL? = nil, summary: String? = nil, commentsURL: URL? = nil, feed: String? = nil) {
        self.id = id
        self.title = title
        self.url = url
        self.source = source
        self.publishedAt = publishedAt
        self.imageURL = imageURL
        self.summary = summary
        self.commentsURL = commentsURL
        self.feed = feed
    }

    /// True when the link may be handed to a browser: http and https only, never javascript:, file: ...
    public var hasOpenableURL: Bool { URLPolicy.isOpenable(url) }
}

/// Which links `headlines` will ever open.
public enum URLPolicy {
    public static func isOpenable(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return url.host.map { !$0.isEmpty } ?? false
    }
}
