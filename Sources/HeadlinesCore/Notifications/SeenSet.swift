import BarFormats
import FoundationEssentials

/// The ids of headlines already seen (notified, or deliberately skipped), with when they were
/// last fetched, and each one's `titleLinkKey` beside its id. Bounded: the most recent
/// `capacity`, none older than `maxAge`, and the file in `fileLimit`. Written durably before
/// notifications are posted, so a restart never repeats one. It also holds what the hourly cap
/// needs (`postedTimes`, `held`) and the feeds and widgets it has seen (`origins`).
public struct SeenSet: Codable, Equatable, Sendable {
    public var seen: [String: Date] = [:]
    /// Feed URLs and widget keys (`originKey`) seen in a reload, with when; nil in a file from
    /// before they were kept, whose reload then takes every origin it brings as known.
    public var origins: [String: Date]?
    /// When each notification of the last hour was posted (a summary counts as one).
    public var postedTimes: [Date] = []
    /// New headlines the hourly cap kept back: the next summary counts them.
    public var held = 0

    /// Two entries a headline (its id and its title+link key): 2500 headlines.
    public static let capacity = 10_000
    public static let maxAge: TimeInterval = 30 * 24 * 3600
    /// The longest seen.json any reader accepts and any writer writes: 5000 ids with dates are
    /// about 500 KB; a longer file was not ours and is set aside unread.
    public static let fileLimit = 2 << 20

    public init() {}

    private enum CodingKeys: String, CodingKey { case seen, origins, postedTimes, held }

    /// Files written before `origins`, `postedTimes` and `held` existed hold only `seen`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        seen = try container.decode([String: Date].self, forKey: .seen)
        origins = try container.decodeIfPresent([String: Date].self, forKey: .origins)
        postedTimes = try container.decodeIfPresent([Date].self, forKey: .postedTimes) ?? []
        held = max(0, try container.decodeIfPresent(Int.self, forKey: .held) ?? 0)
    }

    /// What is empty is left out, so a set that uses none of them is written as before, byte for byte.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seen, forKey: .seen)
        try container.encodeIfPresent(origins, forKey: .origins)
        if !postedTimes.isEmpty { try container.encode(postedTimes, forKey: .postedTimes) }
        if held > 0 { try container.encode(held, forKey: .held) }
    }

    /// A second key for a headline, from its title and link normalised (case, spacing, scheme,
    /// a trailing slash, the fragment): a feed that gives all its items new GUIDs while their
    /// titles and links stay as they were repeats nothing. Hashed, so it costs no more than an id.
    public static func titleLinkKey(_ headline: Headline) -> String {
        var link = headline.url.absoluteString.lowercased()
        if let hash = link.firstIndex(of: "#") { link = String(link[..<hash]) }
        for scheme in ["https://", "http://"] where link.hasPrefix(scheme) { link = String(link.dropFirst(scheme.count)) }
        while link.hasSuffix("/") { link.removeLast() }
        let title = TextCleaning.collapseWhitespace(headline.title).lowercased()
        return "title+link:" + String(FNV1a.hash(title + "\n" + link), radix: 16)
    }

    /// The `origins` key of a widget (a feed's is its URL).
    public static func originKey(widget: String) -> String { "widget " + widget }

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
        origins = origins?.filter { $0.value >= cutoff }
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
