import FoundationEssentials

/// A value kept in a file whose reader accepts at most so many bytes (each file type states its
/// limit beside itself: `CachedHeadlines.fileLimit`, `SeenSet.fileLimit`, `ReloadReport.maxBytes`,
/// ...). When it encodes longer, its writer makes it smaller, dropping what matters least
/// (the oldest headlines), rather than write a file every reader would set aside as corrupt.
public protocol ShrinkableFileValue: Encodable {
    /// The value with about `fraction` (0 to 1) of what it holds dropped, oldest first, and at
    /// least one thing; nil when nothing is left to drop.
    func shrunk(dropping fraction: Double) -> Self?
}

/// The one rule every writer of a bounded file follows: it never writes what its reader would
/// refuse. Any thread.
public enum FileSizeLimit {
    /// `value` encoded in at most `limit` bytes: as it is when it fits, else shrunk
    /// (`ShrinkableFileValue`) until it does. A value that cannot shrink, or shrinks to nothing
    /// and still does not fit, throws `StateFileTooLarge`: the file is left as it was.
    public static func encode<V: Encodable>(_ value: V, limit: Int, path: String) throws -> Data {
        if let shrinkable = value as? any ShrinkableFileValue { return try fitted(shrinkable, limit: limit, path: path).data }
        let data = try StateJSONEncoder.headlines().encode(value)
        guard data.count <= limit else { throw StateFileTooLarge(path: path, limit: limit) }
        return data
    }

    /// `value` shrunk until it encodes in at most `limit` bytes, and those bytes: what was
    /// written is what the caller then holds (and reports).
    public static func fitted<V: ShrinkableFileValue>(_ value: V, limit: Int, path: String) throws -> (value: V, data: Data) {
        let encoder = StateJSONEncoder.headlines()
        var current = value
        var data = try encoder.encode(current)
        while data.count > limit {
            // Drop in proportion to the excess (and a little more), so a file ten times too
            // long is fixed in a few encodings, not one per headline.
            let excess = 1 - Double(limit) / Double(data.count)
            guard let smaller = current.shrunk(dropping: min(1, excess * 1.1)) else {
                throw StateFileTooLarge(path: path, limit: limit)
            }
            current = smaller
            data = try encoder.encode(current)
        }
        return (current, data)
    }

    /// How many of `count` things `fraction` drops: at least one, at most all.
    public static func dropCount(_ count: Int, fraction: Double) -> Int {
        min(count, max(1, Int((Double(count) * fraction).rounded(.up))))
    }
}

extension Array where Element == Headline {
    /// The headlines without the `fraction` oldest (by publication date), in their order; nil
    /// when there is none to drop.
    public func droppingOldest(_ fraction: Double) -> [Headline]? {
        guard !isEmpty else { return nil }
        let drop = FileSizeLimit.dropCount(count, fraction: fraction)
        let oldest = Set(indices.sorted { (self[$0].publishedAt, $1) < (self[$1].publishedAt, $0) }.prefix(drop))
        return indices.filter { !oldest.contains($0) }.map { self[$0] }
    }
}
