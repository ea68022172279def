import FoundationEssentials
import HeadlinesCore

/// One entry of an RSS, Atom or JSON Feed document, reduced to what a headline needs. Every text is
/// plain (entities decoded, markup reduced to text, whitespace collapsed) and every URL is absolute
/// and http(s): a feed is untrusted input, so nothing here needs cleaning again.
public struct FeedItem: Equatable, Sendable {
    public var title: String?
    /// The alternate link (Atom `rel="alternate"` or no `rel`), resolved against `xml:base` and the
    /// feed's URL; nil when the feed gives none that is http(s).
    public var link: URL?
    /// RSS `guid`, Atom `id` or JSON Feed `id`, as written.
    public var id: String?
    public var published: Date?
    public var updated: Date?
    /// The description, summary or content as plain text, clipped to about 300 characters.
    public var summary: String?
    /// An image enclosure, `media:thumbnail`, image `media:content` or JSON Feed `image`.
    public var imageURL: URL?
    public var authors: [String]

    public init(title: String? = nil, link: URL? = nil, id: String? = nil, published: Date? = nil,
                updated: Date? = nil, summary: String? = nil, imageURL: URL? = nil, authors: [String] = []) {
        self.title = title
        self.link = link
        self.id = id
        self.published = published
        self.updated = updated
        self.summary = summary
        self.imageURL = imageURL
        self.authors = authors
    }
}
