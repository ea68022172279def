import FeedXML
import FoundationEssentials
import HeadlinesCore

/// Reads an RSS 0.9x/1.0/2.0, Atom 0.3/1.0 or JSON Feed 1.0/1.1 body into a `FeedDocument`. Pure
/// and synchronous: the provider fetches, this only reads bytes it is handed. Hostile bodies give
/// an error or a clean document, never a crash or a hang: the size is capped, entity declarations
/// are refused, external entities are never loaded and nesting is bounded (see FeedXML's
/// `XMLDocumentReader`).
public enum FeedParser {
    /// Bodies above this are refused before any parsing.
    public static let maxBytes = 4 * 1024 * 1024

    /// Detects RSS 0.9x/1.0(RDF)/2.0, Atom 0.3/1.0, JSON Feed 1.0/1.1 and parses. `baseURL` is the
    /// feed's own URL, for relative links; `contentType` the response's `Content-Type` header, whose
    /// charset counts when the body has neither a BOM nor an XML declaration that names one.
    public static func parse(_ data: Data, baseURL: URL?, contentType: String? = nil) throws(FeedError) -> FeedDocument {
        guard data.count <= maxBytes else { throw FeedError("the feed is larger than 4 MiB") }
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        // Zero bytes count as blank too: UTF-16 whitespace.
        guard let first = body.first(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0) }) else {
            throw FeedError("the feed is empty")
        }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            return try JSONFeedReader.read(Data(body), baseURL: baseURL)
        }
        let document: FeedXMLDocument
        do { document = try XMLDocumentReader.parse(data, contentType: contentType, baseURL: baseURL) } catch {
            throw FeedError(error.reason)
        }
        guard let pageRoot = document.root else {
            throw FeedError(document.firstError ?? "not a feed: the document has no elements")
        }
        // A feed wrapped in an XHTML page (seen in the wild: an Atom <feed> inside <body>) is read
        // as the feed; an HTML page with no feed element in it is not a feed.
        let isPage = document.doctypeName == "html" || pageRoot.name.lowercased() == "html"
        guard let root = isPage ? nestedFeedRoot(in: pageRoot) : pageRoot else { throw notAFeed("html") }
        let feed: FeedDocument
        switch kind(of: root) {
        case .rss?: feed = RSSFeedReader.read(root)
        case .atom?, .atomEntry?: feed = AtomFeedReader.read(root)
        case nil: throw notAFeed(root.qualifiedName)
        }
        // A body cut off before its first complete item is a failed download, not an empty feed.
        if feed.items.isEmpty, let line = document.truncatedAtLine {
            throw FeedError("malformed XML at line \(line): the document ends early (truncated?)")
        }
        return feed
    }

    /// `atomEntry`: an Atom entry document (RFC 4287 §4.1.2), one entry standing alone, as AtomPub
    /// servers and Blogger's per-post URLs serve it.
    private enum Kind { case rss, atom, atomEntry }

    private static let atomNamespaces: Set<String> = [FeedNamespace.atom10, FeedNamespace.atom03, ""]
    /// RDF roots are written `rdf:RDF`, and also `<rdf>` or `<RDF>` with the prefix dropped: in no
    /// namespace, in RSS 1.0's or 0.90's, or with RDF's as the default one.
    private static let rdfNamespaces: Set<String> = [FeedNamespace.rdf, FeedNamespace.rss10, FeedNamespace.rss090, ""]

    private static func kind(of e: FeedXMLElement) -> Kind? {
        switch e.name {
        case "rss": return .rss
        case "RDF", "rdf": return rdfNamespaces.contains(e.namespace) ? .rss : nil
        case "feed": return atomNamespaces.contains(e.namespace) ? .atom : nil
        case "entry": return atomNamespaces.contains(e.namespace) ? .atomEntry : nil
        default: return nil
        }
    }

    /// The first RSS or Atom feed root inside a page, breadth first (the tree's depth is capped). A
    /// lone `<entry>` in a page is not looked for: it is too common a word in other markup.
    private static func nestedFeedRoot(in page: FeedXMLElement) -> FeedXMLElement? {
        var level = [page]
        while !level.isEmpty {
            if let found = level.first(where: { [.rss, .atom].contains(kind(of: $0)) }) { return found }
            level = level.flatMap(\.children)
        }
        return nil
    }

    private static func notAFeed(_ root: String) -> FeedError {
        FeedError("not a feed: the document's root is <\(root)>")
    }
}
