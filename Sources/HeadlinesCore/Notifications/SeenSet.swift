import FoundationEssentials

/// The ids of headlines already seen (notified, or deliberately skipped), with when they were
/// last fetched. Bounded: the most recent `capacity`, none older than `maxAge`, and the file in
/// `fileLimit`. Written durably before notifications are posted, so a restart never repeats one.
public struct SeenSet: Codable, Equatable, Sendable {
    public var seen: [String: Date] = [:]

    public static let capacity = 5000
    public static let maxAge: TimeInterval = 30 * 24 * 3600
    /// The longest seen.json any reader accepts and any writer writes: 5000 ids with dates are
    /// about 500 KB; a longer file was not ours and is set aside unread.
    public static let fileLimit = 2 << 20

    public init() {}

    public var isEmpty: Bool { seen.isEmpty }
    public func contains(_ id: String) -> Bool { seen[id] != nil }

    public mutating func insert(_ id: String, at now: Date) {
        if seen[id] == nil { seen[id] = now }
    }

    /// How stale the date of an id still fetched may grow before `touch` moves it: far inside
    /// `maxAge`, and coarse enough that a reload that fetched nothing new leaves the set (and so
    /// seen.json) as it was.
    public static let touchInterval: TimeInterval = 24 * 3600

    /// Marks `id` seen at `now`, also when it already was, once its date is `touchInterval` old:
    /// an id still fetched then never ages out (it would be notified again when it does).
    public mutating func touch(_ id: String, at now: Date) {
        if let old = seen[id], now.timeIntervalSince(old) < Self.touchInterval { return }
        seen[id] = max(now, seen[id] ?? now)
    }

    /// Drops entries older than `maxAge`, then the oldest beyond `capacity`; the ids in `fetched`
    /// (those of the reload at hand) are kept whatever their date.
    public mutating func prune(now: Date, keeping fetched: Set<String> = []) {
        let cutoff = now.addingTimeInterval(-Self.maxAge)
        seen = seen.filter { $0.value >= cutoff || fetched.contains($0.key) }
        if seen.count > Self.capacity {
            let keep = seen.sorted { a, b in
                let aFetched = fetched.contains(a.key), bFetched = fetched.contains(b.key)
                return aFetched != bFetched ? aFetched : (a.value, a.key) > (b.value, b.key)
            }.prefix(Self.capacity)
            seen = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
        }
    }
}

/// Sources the user muted ("Mute source" on a notification, `headlines mute`): hidden from
/// notifications and the bar. It also carries the config's `[notify] mute-words`, so every place
/// that hides muted sources hides those headlines too; the words are never written to muted.json.
public struct MutedSources: Codable, Equatable, Sendable {
    public var sources: [String] = []
    /// `[notify] mute-words`, set by whoever loaded the file (not stored).
    public var words = KeywordMatcher()
    public init(_ sources: [String] = [], words: KeywordMatcher = KeywordMatcher()) {
        self.sources = sources
        self.words = words
    }

    private enum CodingKeys: String, CodingKey { case sources }

    /// Bounds on what anyone can make the host hold: a source is a headline's source, so no longer
    /// than a stored headline's field, and far more sources than anyone mutes.
    public static let maxSources = 200
    public static let maxSourceBytes = Headline.maxFieldBytes

    /// Why `source` cannot be muted, in one sentence; nil when it can be.
    public func refusal(toMute source: String) -> String? {
        if source.isEmpty || source.utf8.count > Self.maxSourceBytes {
            return "a source is 1 to \(Self.maxSourceBytes) bytes, as `headlines list` shows it"
        }
        if sources.count >= Self.maxSources && !sources.contains(where: { $0.equalsIgnoringCase(source) }) {
            return "\(Self.maxSources) sources are muted already: unmute some first (`headlines muted` lists them)"
        }
        return nil
    }

    /// A file written by anyone holds at most what `mute` would have let in (in its own order).
    public init(from decoder: any Decoder) throws {
        for source in try decoder.container(keyedBy: CodingKeys.self).decode([String].self, forKey: .sources)
            where refusal(toMute: source) == nil && !sources.contains(where: { $0.equalsIgnoringCase(source) }) {
            sources.append(source)
        }
    }

    /// The same muted sources with `words` (the config's mute-words) applied.
    public func with(words: KeywordMatcher) -> MutedSources {
        MutedSources(sources, words: words)
    }

    public func isMuted(_ headline: Headline) -> Bool {
        sources.contains { $0.equalsIgnoringCase(headline.source) } || words.matches(headline)
    }

    /// False when it was muted already, or `refusal(toMute:)` refuses it.
    public mutating func mute(_ source: String) -> Bool {
        guard refusal(toMute: source) == nil, !sources.contains(where: { $0.equalsIgnoringCase(source) }) else { return false }
        sources.append(source)
        sources.sort()
        return true
    }

    public mutating func unmute(_ source: String) -> Bool {
        let before = sources.count
        sources.removeAll { $0.equalsIgnoringCase(source) }
        return sources.count != before
    }

    public func filter(_ headlines: [Headline]) -> [Headline] { headlines.filter { !isMuted($0) } }
}

extension SeenSet: ShrinkableFileValue {
    /// Drops the entries seen longest ago (long ids can make 5000 entries longer than the file).
    public func shrunk(dropping fraction: Double) -> SeenSet? {
        guard !seen.isEmpty else { return nil }
        let drop = FileSizeLimit.dropCount(seen.count, fraction: fraction)
        var copy = self
        for entry in seen.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }).prefix(drop) { copy.seen[entry.key] = nil }
        return copy
    }
}

extension JSONStateFile where Value == SeenSet {
    /// The seen set at `path` (`XDGPaths.seenFile`). The planner prunes it to `SeenSet.capacity`
    /// and the store to `SeenSet.fileLimit` before every write, so a longer file was not ours: it
    /// is set aside by its size, never parsed (a 200 MB one used to freeze the loop for seconds).
    public init(seenSetAt path: String, fileSystem: any StateFileSystem = PosixFileSystem()) {
        self.init(path: path, what: "seen-headlines", fileSystem: fileSystem, limit: SeenSet.fileLimit)
    }
}

extension JSONStateFile where Value == MutedSources {
    /// The muted sources at `path` (`XDGPaths.mutedFile`).
    public init(mutedSourcesAt path: String, fileSystem: any StateFileSystem = PosixFileSystem()) {
        self.init(path: path, what: "muted-sources", fileSystem: fileSystem)
    }
}
