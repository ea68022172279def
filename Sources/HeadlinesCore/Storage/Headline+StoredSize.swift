import FoundationEssentials

extension Headline {
    /// The longest id, link, title, source, summary or image link a stored headline keeps, in
    /// UTF-8 bytes. Far above any real one (browsers and servers give up on links near 8 KB), far
    /// below what fills a file: forty headlines of 100 KB links made a cache no reader accepts.
    public static let maxFieldBytes = 4096

    /// The headline as it may be stored, cached, reported and handed out: text longer than
    /// `maxFieldBytes` cut (on a character boundary), an over-long image link dropped, and nil
    /// when its id or link is over-long (cutting those would name another article) or its link is
    /// not http(s) (a cache another process renamed into place may hold anything).
    public func bounded() -> Headline? {
        let limit = Self.maxFieldBytes
        guard id.utf8.count <= limit, url.absoluteString.utf8.count <= limit, URLPolicy.isOpenable(url) else { return nil }
        var copy = self
        copy.title = Self.cut(title, limit)
        copy.source = Self.cut(source, limit)
        copy.summary = summary.map { Self.cut($0, limit) }
        if let image = imageURL, image.absoluteString.utf8.count > limit { copy.imageURL = nil }
        if let feed, feed.utf8.count > limit { copy.feed = nil }
        if let comments = commentsURL, comments.absoluteString.utf8.count > limit || !URLPolicy.isOpenable(comments) { copy.commentsURL = nil }
        return copy
    }

    /// `text` in at most `limit` UTF-8 bytes, whole characters only.
    static func cut(_ text: String, _ limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var bytes = 0
        var end = text.startIndex
        for index in text.indices {
            bytes += text[index].utf8.count
            if bytes > limit { break }
            end = text.index(after: index)
        }
        return String(text[..<end])
    }
}

extension Array where Element == Headline {
    /// Every headline `Headline.bounded()`, the over-long ones dropped: what arrives from a source
    /// before anything stores or shows it.
    public func bounded() -> [Headline] { compactMap { $0.bounded() } }
}
