import FoundationEssentials

/// The last good headlines and when they were fetched, shared by every process (CLI, host, bars)
/// the way a phone app and its widget share one App Group file.
public struct CachedHeadlines: Codable, Equatable, Sendable {
    public var version: Int = 1
    public var provider: String
    public var fetchedAt: Date
    public var headlines: [Headline]

    public init(provider: String, fetchedAt: Date, headlines: [Headline]) {
        self.provider = provider
        self.fetchedAt = fetchedAt
        self.headlines = headlines
    }

    /// Whoever wrote the file, what is read from it is bounded as a fetch is (`Headline.bounded`):
    /// every reader, the host's bus and bars included, gets http(s) links only.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decode(Int.self, forKey: .version)
        provider = try c.decode(String.self, forKey: .provider)
        fetchedAt = try c.decode(Date.self, forKey: .fetchedAt)
        headlines = try c.decode([Headline].self, forKey: .headlines).bounded()
    }

    /// The longest headlines.json any reader accepts and any writer writes.
    public static let fileLimit = ReadLimits.stateFile
}

extension CachedHeadlines: ShrinkableFileValue {
    public func shrunk(dropping fraction: Double) -> CachedHeadlines? {
        guard let kept = headlines.droppingOldest(fraction) else { return nil }
        var copy = self
        copy.headlines = kept
        return copy
    }
}

/// The headline cache: a `JSONStateFile` of `CachedHeadlines` (atomic writes; a file that does not
/// parse is moved aside with one warning and read as empty, never a crash).
public typealias HeadlineCache = JSONStateFile<CachedHeadlines>

extension JSONStateFile where Value == CachedHeadlines {
    /// The cache at `path` (`XDGPaths.cacheFile`).
    public init(path: String, fileSystem: any StateFileSystem = PosixFileSystem()) {
        self.init(path: path, what: "cache", fileSystem: fileSystem, limit: CachedHeadlines.fileLimit)
    }
}
