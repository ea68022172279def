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
}

/// Reads and writes `CachedHeadlines` at one path. Writes are atomic; a file that does not parse is
/// moved aside with one warning and read as empty, never a crash.
public struct HeadlineCache: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The cached headlines, or nil when there are none. `warn` hears about a corrupt file once.
    public func load(now: Date, warn: (String) -> Void) -> CachedHeadlines? {
        loadJSON(CachedHeadlines.self, path: path, what: "cache", now: now, warn: warn)
    }

    public func store(_ value: CachedHeadlines) throws {
        try Platform.writeAtomically(try JSONEncoder.headlines().encode(value), to: path)
    }
}

/// Loads a JSON file written by `JSONEncoder.headlines()`: nil when missing; when unreadable or not
/// parseable, one warning and nil, with a corrupt file moved aside to `NAME.corrupt-TIMESTAMP`.
func loadJSON<T: Decodable>(_ type: T.Type, path: String, what: String, now: Date, warn: (String) -> Void) -> T? {
    let data: Data?
    do {
        data = try Platform.read(path)
    } catch {
        warn("Cannot read the \(what) file (\(error)); carrying on without it: check its permissions.")
        return nil
    }
    guard let data else { return nil }
    do {
        return try JSONDecoder.headlines().decode(T.self, from: data)
    } catch {
        let stamp = String(Int(now.timeIntervalSince1970))
        if let aside = Platform.setAside(path, suffix: stamp) {
            warn("The \(what) file \(path) was corrupt; moved it to \(aside) and started afresh.")
        } else {
            warn("The \(what) file \(path) is corrupt and could not be moved aside; ignoring it: delete it.")
        }
        return nil
    }
}
