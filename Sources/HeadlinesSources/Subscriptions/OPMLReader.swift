import FeedXML
import FoundationEssentials
import HeadlinesCore

/// OPML 1.0 and 2.0 subscription lists (Feedly, Inoreader, NetNewsWire, Thunderbird ... exports),
/// read with libxml2 through FeedXML: recovery for sloppy exports, no network, no entities.
///
/// Every `<outline>` with an `xmlUrl`, at any depth, is a feed. Its tags are the titles of the
/// folder outlines around it plus its `category` attribute (OPML 2.0: comma-separated, a leading
/// `/` dropped). Only http and https URLs are kept; a relative or `javascript:` one, or a feed
/// outline without `xmlUrl`, is one warning.
enum OPMLReader {
    static func read(_ data: Data, name: String) throws(SubscriptionError) -> (subscriptions: [Subscription], warnings: [String]) {
        let document: FeedXMLDocument
        do { document = try XMLDocumentReader.parse(data, baseURL: nil) } catch {
            throw SubscriptionError("\(name) is not a usable OPML file (\(error.reason)); export the subscriptions again.")
        }
        guard let root = document.root, root.name.lowercased() == "opml" else {
            let found = document.root.map { "its root is <\(TerminalText.safe($0.qualifiedName))>" } ?? (document.firstError ?? "no elements")
            throw SubscriptionError("\(name) is neither OPML nor a newsboat urls file (\(found)); export the subscriptions as OPML.")
        }
        var reader = Walk(name: name)
        // `<body>` holds the outlines; a sloppy export may put them straight under `<opml>`.
        for top in root.children where top.name.lowercased() == "body" || top.name.lowercased() == "outline" {
            if top.name.lowercased() == "body" {
                for outline in top.children { reader.visit(outline, folders: []) }
            } else {
                reader.visit(top, folders: [])
            }
        }
        return (Subscription.merged(reader.found), reader.warnings)
    }

    private struct Walk {
        let name: String
        var found: [Subscription] = []
        var warnings: [String] = []

        /// The tree's depth is capped by XMLDocumentReader, so this recursion is bounded.
        mutating func visit(_ element: FeedXMLElement, folders: [String]) {
            guard element.name.lowercased() == "outline" else { return }
            let title = Self.title(element)
            if let raw = Self.attribute(element, "xmlurl") {
                let url = URL(string: raw)
                guard let url, URLPolicy.isOpenable(url) else {
                    warnings.append("\(name): the outline '\(TerminalText.safe(title ?? "untitled"))' has '\(TerminalText.safe(String(raw.prefix(200))))', which is not an http or https feed URL; skipped.")
                    return
                }
                var tags = folders
                for tag in Self.categories(element) where !tags.contains(tag) { tags.append(tag) }
                found.append(Subscription(url: url, title: title, tags: tags))
                return
            }
            if element.children.isEmpty {
                // An empty folder is nothing; an outline typed as a feed with no URL is a broken export.
                let type = Self.attribute(element, "type")?.lowercased()
                if type == "rss" || type == "atom" || Self.attribute(element, "htmlurl") != nil {
                    warnings.append("\(name): the outline '\(TerminalText.safe(title ?? "untitled"))' has no xmlUrl, so there is no feed to read; skipped.")
                }
                return
            }
            let inner = title.map { folders.contains($0) ? folders : folders + [$0] } ?? folders
            for child in element.children { visit(child, folders: inner) }
        }

        /// `title`, else `text` (OPML 1.0 readers use either), entities decoded, spaces folded.
        static func title(_ element: FeedXMLElement) -> String? {
            for key in ["title", "text"] {
                if let value = attribute(element, key) {
                    let plain = TextCleaning.plainTitle(value)
                    if !plain.isEmpty { return plain }
                }
            }
            return nil
        }

        /// OPML 2.0 `category="/Tech/Linux,/News"`: each comma-separated part, leading `/` dropped.
        static func categories(_ element: FeedXMLElement) -> [String] {
            guard let raw = attribute(element, "category") else { return [] }
            return raw.split(separator: ",").map { part in
                TextCleaning.plainTitle(String(part.drop(while: { $0 == "/" || $0 == " " })))
            }.filter { !$0.isEmpty }
        }

        /// Attribute names compared case-insensitively: exports write `xmlUrl`, `xmlurl`, `XMLURL`.
        static func attribute(_ element: FeedXMLElement, _ lowercasedName: String) -> String? {
            if let exact = element.attributes.first(where: { $0.key.lowercased() == lowercasedName }) {
                let value = exact.value.trimmed()
                return value.isEmpty ? nil : value
            }
            return nil
        }
    }
}
