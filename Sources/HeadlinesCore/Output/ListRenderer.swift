import FoundationEssentials

/// `headlines list` and `fetch` output: numbered lines for a terminal, or a JSON array for scripts.
public enum ListRenderer {
    /// One JSON object per headline, the shape `list --json` documents.
    public struct Item: Codable, Equatable {
        public var id: String
        public var title: String
        public var url: String
        public var source: String
        public var published_at: String
        public var image: String?
        public var comments_url: String?
    }

    public static func json(_ headlines: [Headline]) -> String {
        let items = headlines.map {
            Item(id: $0.id, title: $0.title, url: $0.url.absoluteString, source: $0.source,
                 published_at: ISO8601.format($0.publishedAt), image: $0.imageURL?.absoluteString,
                 comments_url: $0.commentsURL?.absoluteString)
        }
        // Encode optionals as explicit nulls: scripts should see `"image": null`, not a missing key.
        let data = try! StateJSONEncoder.headlines(prettyPrinted: true).encode(items.map(NullableItem.init))
        return String(decoding: data, as: UTF8.self)
    }

    /// A terminal list: a header when the list is stale, then `N. title` and `source · age` lines.
    public static func text(_ cached: CachedHeadlines?, status: RefreshStatus, now: Date) -> String {
        guard let cached, !cached.headlines.isEmpty else {
            if let failure = status.lastFailure {
                return "No headlines cached. The last refresh failed \(RelativeAge.describe(failure.at, now: now)): \(TerminalText.safe(failure.message))\n"
            }
            return "No headlines cached yet: run `headlines fetch`.\n"
        }
        var out = ""
        if let failure = status.lastFailure, failure.at >= cached.fetchedAt {
            out += "! Stale: fetched \(RelativeAge.describe(cached.fetchedAt, now: now)); the last refresh failed \(RelativeAge.describe(failure.at, now: now)): \(TerminalText.safe(failure.message))\n"
        }
        let width = String(cached.headlines.count).count
        for (i, h) in cached.headlines.enumerated() {
            let n = String(i + 1)
            out += String(repeating: " ", count: width - n.count) + n + ". " + TerminalText.safe(h.title) + "\n"
            out += String(repeating: " ", count: width + 2) + TerminalText.safe(h.source) + " · " + RelativeAge.describe(h.publishedAt, now: now) + "\n"
        }
        return out
    }

    private struct NullableItem: Encodable {
        let item: Item
        init(_ item: Item) { self.item = item }
        enum K: String, CodingKey { case id, title, url, source, published_at, image, comments_url }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: K.self)
            try c.encode(item.id, forKey: .id)
            try c.encode(item.title, forKey: .title)
            try c.encode(item.url, forKey: .url)
            try c.encode(item.source, forKey: .source)
            try c.encode(item.published_at, forKey: .published_at)
            try c.encode(item.image, forKey: .image)
            try c.encode(item.comments_url, forKey: .comments_url)
        }
    }
}

/// Text for a terminal: control characters (which could move the cursor or recolour the screen)
/// and bidi overrides (which could reorder what follows) replaced.
public enum TerminalText {
    public static func safe(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.map { isUnsafe($0) ? "\u{FFFD}" : $0 }))
    }

    /// C0/C1 controls, and the bidi embedding, override and isolate controls.
    public static func isUnsafe(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
        default: return false
        }
    }
}
