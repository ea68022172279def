import FoundationEssentials
import HeadlinesCore
import FeedXML

/// RSS 0.90, 0.91, 0.92, 1.0 (RDF) and 2.0, with the extensions news feeds use for what RSS lacks:
/// Dublin Core dates and creators, `content:encoded`, Media RSS images, iTunes, and Atom elements
/// written inside RSS.
enum RSSFeedReader {
    private typealias NS = FeedNamespace
    private static let atom: Set<String> = [NS.atom10]
    private static let dc: Set<String> = [NS.dc]

    static func read(_ root: FeedXMLElement) -> FeedDocument {
        // RSS 2.0 inside a default namespace on <rss> (Userland's http://backend.userland.com/rss2,
        // or any other) is still RSS: its elements carry that namespace. So is an unprefixed
        // <RDF> whose default namespace is RDF's: its channel and items are in RDF's.
        let rss = NS.rss.union([root.namespace])
        let channel = root.child("channel", in: rss)
        // RSS 0.9x and 2.0 keep items in the channel; RDF (0.90 and 1.0) beside it. An item the
        // body ended inside (a truncated download) is dropped rather than shown cut off.
        let items = ((channel?.children("item", in: rss) ?? []) + root.children("item", in: rss)).filter {
            // A download cut off inside an item keeps it when its title and link arrived whole.
            $0.isComplete || ($0.child("title", in: rss)?.isComplete == true && $0.child("link", in: rss)?.isComplete == true)
        }
        return FeedDocument(
            title: FeedText.plain(channel?.firstText([("title", rss), ("title", dc)])),
            link: channel.flatMap { link($0, rss) },
            items: items.map { item($0, rss) },
            period: channel.flatMap { period($0, rss) })
    }

    /// `<ttl>` first (RSS 2.0), then the syndication module (RSS 1.0, and 2.0 feeds that borrow it).
    private static func period(_ channel: FeedXMLElement, _ rss: Set<String>) -> FeedPeriod? {
        FeedPeriod.ttl(channel.child("ttl", in: rss)?.trimmedText) ?? FeedPeriod.syndication(in: channel)
    }

    private static func item(_ e: FeedXMLElement, _ rss: Set<String>) -> FeedItem {
        let guid = e.child("guid", in: rss)
        return FeedItem(
            title: FeedText.plain(e.firstText([("title", rss), ("title", dc), ("title", NS.media)])),
            link: link(e, rss) ?? permalink(guid),
            id: guid?.trimmedText ?? e.firstText([("id", atom)]),
            published: date(e, [("pubDate", rss), ("pubdate", rss), ("date", dc), ("published", atom), ("issued", [NS.dcterms])]),
            updated: date(e, [("updated", atom), ("modified", [NS.dcterms])]),
            summary: FeedText.summary(e.firstText([
                ("description", rss), ("description", dc), ("encoded", [NS.content]), ("summary", atom),
                ("content", atom), ("summary", NS.itunesVariants), ("description", NS.media),
            ])),
            imageURL: FeedImages.image(in: e, rss: rss),
            authors: authors(e, rss))
    }

    /// An RSS `<link>` written Atom-style (`href`, no text) is the most explicit; then the first
    /// text `<link>`; then an Atom alternate link. The first of these that is http(s) wins.
    private static func link(_ e: FeedXMLElement, _ rss: Set<String>) -> URL? {
        let links = e.children("link", in: rss)
        let hrefs = links.compactMap { l in l.attribute("href").map { ($0, l.base) } }
        let texts = links.compactMap { l in l.trimmedText.map { ($0, l.base) } }
        for (raw, base) in hrefs + texts {
            if let url = FeedLinks.openable(raw, against: base) { return url }
        }
        return AtomFeedReader.alternateLink(in: e, namespaces: atom)
    }

    /// A `guid` is the item's permalink unless it says `isPermaLink="false"` (RSS 2.0).
    private static func permalink(_ guid: FeedXMLElement?) -> URL? {
        guard let guid, guid.attribute("isPermaLink")?.lowercased() != "false" else { return nil }
        return FeedLinks.openable(guid.trimmedText, against: guid.base)
    }

    private static func date(_ e: FeedXMLElement, _ candidates: [(name: String, namespaces: Set<String>)]) -> Date? {
        for (name, namespaces) in candidates {
            for element in e.children(name, in: namespaces) {
                if let text = element.trimmedText, let date = FeedDates.parse(text) { return date }
            }
        }
        return nil
    }

    private static func authors(_ e: FeedXMLElement, _ rss: Set<String>) -> [String] {
        var names: [String] = []
        for element in e.children("author", in: rss) + e.children("creator", in: dc) {
            if let name = FeedText.authorName(element.text) { names.append(name) }
        }
        names += AtomFeedReader.authors(in: e, namespaces: atom)
        if names.isEmpty, let itunes = FeedText.authorName(e.firstText([("author", NS.itunesVariants)])) {
            names.append(itunes)
        }
        return FeedText.unique(names)
    }
}
