import Foundation

/// Reads an RSS 0.9x/1.0/2.0, Atom 0.3/1.0 or JSON Feed 1.0/1.1 body into a `FeedDocument`. Pure
/// and synchronous: the provider fetches, this only reads bytes it is handed. Hostile bodies give
/// an error or a clean document, never a crash or a hang: the size is capped, entity declarations
/// are refused, external entities are never loaded and nesting is bounded.
public enum FeedParser {
    /// Bodies above this are refused before any parsing.
    public static let maxBytes = 4 * 1024 * 1024

    /// Detects RSS 0.9x/1.0(RDF)/2.0, Atom 0.3/1.0, JSON Feed 1.0/1.1 and parses. `baseURL` is the
    /// feed's own URL, for relative links.
    public static func parse(_ data: Data, baseURL: URL?) throws(FeedError) -> FeedDocument {
        guard data.count <= maxBytes else { throw FeedError("the feed is larger than 4 MiB") }
        let text = FeedInput.decode(data)
        guard let first = text.unicodeScalars.first(where: { !$0.properties.isWhitespace }) else {
            throw FeedError("the feed is empty")
        }
        if first == "{" || first == "[" {
            return try JSONFeedReader.read(Data(text.utf8), baseURL: baseURL)
        }
        if let name = leadingElementName(text), name.lowercased() == "html" {
            throw notAFeed("html")
        }
        try FeedEntityGuard.check(text)
        let root = try FeedXMLTreeBuilder.parse(FeedInput.utf8XML(FeedEntityGuard.repair(FeedEntityGuard.stripProcessingInstructions(text))), baseURL: baseURL)
        switch (root.name, root.namespace) {
        case ("rss", _), ("RDF", FeedNamespace.rdf):
            return RSSFeedReader.read(root)
        case ("feed", FeedNamespace.atom10), ("feed", FeedNamespace.atom03), ("feed", ""):
            return AtomFeedReader.read(root)
        default:
            throw notAFeed(root.qualifiedName)
        }
    }

    private static func notAFeed(_ root: String) -> FeedError {
        FeedError("not a feed: the document's root is <\(root)>")
    }

    /// The name of the first element, past the prolog, comments and DOCTYPE (`<!DOCTYPE html>`
    /// counts as html): HTML is rarely well-formed XML, so it is recognised before parsing.
    static func leadingElementName(_ text: String) -> String? {
        var rest = Substring(text.prefix(65536))
        while true {
            rest = rest.drop(while: { $0.isWhitespace })
            if rest.hasPrefix("<?") || rest.hasPrefix("<!--") {
                let close = rest.hasPrefix("<?") ? "?>" : "-->"
                guard let end = rest.range(of: close) else { return nil }
                rest = rest[end.upperBound...]
            } else if rest.prefix(9).uppercased() == "<!DOCTYPE" {
                let words = rest.dropFirst(9).split(whereSeparator: { $0.isWhitespace || $0 == ">" || $0 == "[" })
                if let name = words.first, name.lowercased() == "html" { return "html" }
                guard let end = rest.firstIndex(of: ">") else { return nil }
                rest = rest[rest.index(after: end)...]
            } else if rest.hasPrefix("<") {
                return String(rest.dropFirst().prefix(while: { !$0.isWhitespace && $0 != ">" && $0 != "/" }))
            } else {
                return nil
            }
        }
    }
}
