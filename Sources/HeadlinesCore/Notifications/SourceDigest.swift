import FoundationEssentials

/// The new headlines of one source that were not posted one by one (past `max-per-refresh`):
/// "BBC News: 3 new", "First title, and 2 more". While it is on screen, the next reload's digest
/// of the same source is added to it in place rather than posted beside it.
public struct SourceDigest: Equatable, Sendable {
    public var source: String
    public var count: Int
    /// The newest of them, whose title the digest shows.
    public var newest: Headline

    public init(source: String, count: Int, newest: Headline) {
        self.source = source
        self.count = count
        self.newest = newest
    }

    /// One digest per source of `newestFirst`, in the order of each source's newest headline.
    public static func of<Headlines: Collection<Headline>>(_ newestFirst: Headlines) -> [SourceDigest] {
        var digests: [SourceDigest] = []
        var index: [String: Int] = [:]
        for headline in newestFirst {
            if let i = index[headline.source] {
                digests[i].count += 1
            } else {
                index[headline.source] = digests.count
                digests.append(SourceDigest(source: headline.source, count: 1, newest: headline))
            }
        }
        return digests
    }

    /// This digest with a later one of the same source added: the counts summed, the newer title.
    public func adding(_ later: SourceDigest) -> SourceDigest {
        SourceDigest(source: source, count: count + later.count,
                     newest: later.newest.publishedAt >= newest.publishedAt ? later.newest : newest)
    }
}
