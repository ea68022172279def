import Foundation

extension FreshRSSServer {
    /// An RSS feed `feedServer` serves at `path`, titled `title` in the subscription list.
    public struct Feed: Sendable {
        public var path: String
        public var title: String
        public var items: [Item]
        public init(path: String, title: String, items: [Item]) {
            self.path = path
            self.title = title
            self.items = items
        }

        public struct Item: Sendable {
            public var guid: String
            public var title: String
            public var link: String
            public var published: Date
            public var summary: String
            public init(guid: String, title: String, link: String, published: Date, summary: String = "") {
                self.guid = guid
                self.title = title
                self.link = link
                self.published = published
                self.summary = summary
            }
        }

        /// The feed as RSS 2.0, every text XML-escaped.
        public var rss: Data {
            let items = self.items.map { item in
                "<item><title>\(Self.escaped(item.title))</title><link>\(Self.escaped(item.link))</link>"
                    + "<guid isPermaLink=\"false\">\(Self.escaped(item.guid))</guid><pubDate>\(Self.rfc822(item.published))</pubDate>"
                    + "<description>\(Self.escaped(item.summary))</description></item>"
            }
            return Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>\(Self.escaped(title))</title>"
                         + "<link>https://\(path.dropFirst()).example/</link><description>test feed</description>\n"
                         + items.joined(separator: "\n") + "\n</channel></rss>\n").utf8)
        }

        /// `count` feeds of `itemsEach` items, "Feed 1 story 1" ..., linking to https://news.example,
        /// each item an hour older than the one before, the newest `newest`: no two share a date.
        public static func numbered(_ count: Int, itemsEach: Int, newest: Date) -> [Feed] {
            (1...count).map { f in
                Feed(path: "/feed\(f).xml", title: "Feed \(f)", items: (1...itemsEach).map { i in
                    Item(guid: "feed\(f)-\(i)", title: "Feed \(f) story \(i)", link: "https://news.example/\(f)/\(i)",
                         published: newest.addingTimeInterval(-3600 * Double((i - 1) * count + f - 1)),
                         summary: "<p>Story \(i) of <b>feed \(f)</b>.</p>")
                })
            }
        }

        static func escaped(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }

        static func rfc822(_ date: Date) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            return formatter.string(from: date)
        }
    }
}
