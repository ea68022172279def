import FoundationEssentials
import HeadlinesCore

/// A parsed feed: its own title and home page, and its items in document order.
public struct FeedDocument: Equatable, Sendable {
    public var title: String?
    /// The site the feed belongs to (RSS `link`, Atom alternate link, JSON Feed `home_page_url`).
    public var link: URL?
    public var items: [FeedItem]
    /// How often the feed says it changes (RSS `<ttl>`, `sy:updatePeriod`); nil when it does not.
    public var period: FeedPeriod?

    public init(title: String? = nil, link: URL? = nil, items: [FeedItem] = [], period: FeedPeriod? = nil) {
        self.title = title
        self.link = link
        self.items = items
        self.period = period
    }
}
