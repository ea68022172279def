import FoundationEssentials
import HeadlinesCore
import FeedXML

/// Atom 1.0 and 0.3 (`issued`/`created`/`modified` for dates). Text constructs of every `type`
/// end up as plain text; an entry without authors inherits the feed's (RFC 4287 §4.2.1). An entry
/// document (root `<entry>`) is a feed of that one entry, with no title or link of its own. How
/// often the feed changes comes from the syndication module (`sy:updatePeriod`), as in RSS.
enum AtomFeedReader {
    static func read(_ root: FeedXMLElement) -> FeedDocument {
        let ns: Set<String> = [root.namespace]
        guard root.name == "feed" else {
            return FeedDocument(items: [root].filter(\.isComplete).map { entry(in: $0, namespaces: ns, feedAuthors: []) })
        }
        let feedAuthors = authors(in: root, namespaces: ns)
        return FeedDocument(
            title: FeedText.plain(root.firstText([("title", ns)])),
            link: alternateLink(in: root, namespaces: ns),
            items: root.children("entry", in: ns).filter(\.isComplete).map { entry(in: $0, namespaces: ns, feedAuthors: feedAuthors) },
            // Atom has no ttl; a feed that says how often it changes borrows RSS's syndication module.
            period: FeedPeriod.syndication(in: root))
    }

    private static func entry(in e: FeedXMLElement, namespaces ns: Set<String>, feedAuthors: [String]) -> FeedItem {
        let entryAuthors = authors(in: e, namespaces: ns)
        return FeedItem(
            title: FeedText.plain(e.firstText([("title", ns)])),
            // An entry whose only link is its id (an http(s) URL, as Blogger and others write) opens that.
            link: alternateLink(in: e, namespaces: ns) ?? FeedLinks.openable(e.firstText([("id", ns)]), against: e.base),
            id: e.firstText([("id", ns)]),
            published: date(e, ["published", "issued", "created"], ns),
            updated: date(e, ["updated", "modified"], ns),
            summary: FeedText.summary(e.firstText([("summary", ns), ("content", ns)])),
            imageURL: FeedImages.image(in: e),
            authors: entryAuthors.isEmpty ? feedAuthors : entryAuthors)
    }

    /// The first http(s) `<link>` whose `rel` is absent or "alternate", resolved against its
    /// `xml:base`. Atom 0.3 writes the same.
    static func alternateLink(in e: FeedXMLElement, namespaces: Set<String>) -> URL? {
        for link in e.children("link", in: namespaces) {
            let rel = link.attribute("rel")?.lowercased() ?? "alternate"
            guard rel == "alternate" || rel == "http://www.iana.org/assignments/relation/alternate" else { continue }
            if let url = FeedLinks.openable(link.attribute("href") ?? link.trimmedText, against: link.base) { return url }
        }
        return nil
    }

    /// The `name` of each `author` (or a bare text author, as some RSS feeds write `atom:author`).
    static func authors(in e: FeedXMLElement, namespaces: Set<String>) -> [String] {
        let names = e.children("author", in: namespaces).compactMap { author in
            FeedText.plain(author.firstText([("name", namespaces)]) ?? (author.children.isEmpty ? author.text : nil))
        }
        return FeedText.unique(names)
    }

    private static func date(_ e: FeedXMLElement, _ names: [String], _ ns: Set<String>) -> Date? {
        for name in names {
            for element in e.children(name, in: ns) {
                if let text = element.trimmedText, let date = FeedDates.parse(text) { return date }
            }
        }
        return nil
    }
}
