import FoundationEssentials

/// One feed from a subscription file (OPML export, newsboat `urls`): its URL, the title the
/// reader gave it, and its tags (OPML folders and `category`, newsboat's tags), as written.
public struct Subscription: Equatable, Sendable {
    public var url: URL
    public var title: String?
    public var tags: [String]

    public init(url: URL, title: String? = nil, tags: [String] = []) {
        self.url = url
        self.title = title
        self.tags = tags
    }

    /// Whether it carries one of `wanted` (case-insensitive: `Tech` in an OPML folder is `#tech`).
    public func isTagged(_ wanted: [String]) -> Bool {
        let lowered = Set(wanted.map { $0.lowercased() })
        return tags.contains { lowered.contains($0.lowercased()) }
    }

    /// The same URL listed twice (two OPML folders, a repeated line) is one feed with both tag
    /// sets: the first title wins, order kept.
    static func merged(_ list: [Subscription]) -> [Subscription] {
        var out: [Subscription] = []
        var index: [String: Int] = [:]
        for item in list {
            if let at = index[item.url.absoluteString] {
                out[at].title = out[at].title ?? item.title
                for tag in item.tags where !out[at].tags.contains(tag) { out[at].tags.append(tag) }
            } else {
                index[item.url.absoluteString] = out.count
                out.append(item)
            }
        }
        return out
    }
}

/// A subscription file that could not be used, as one sentence that says what to do.
public struct SubscriptionError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
