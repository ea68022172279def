import BarFormats
import FoundationEssentials

/// What a bar segment shows at one moment, whichever bar it is: the entry on display, its
/// neighbours for the tooltip, and the budget. Built by the host from its timeline.
///
/// Its texts are neutralised once, here (`Markup.neutralise`: no control or bidi characters, one
/// line): every renderer reads them many times, and escapes them for its host, but never needs to
/// clean them again.
public struct BarState: Equatable, Sendable {
    public private(set) var headlines: [Headline]
    /// Index of the headline on display.
    public var index: Int
    public var freshness: Freshness
    public private(set) var error: String?
    /// Feeds that failed while others answered (one sentence each): the `partial` class.
    public private(set) var partialFailures: [String]
    public var budgetUsed: Int
    public var budgetLimit: Int
    /// The config did not load (its one sentence): the bar says so with the `error` class, and
    /// shows no headline, until the config is fixed.
    public var configError: String?
    /// `[notify] keywords`: matching headlines are marked (waybar's `match` class, bold).
    public var keywords = KeywordMatcher()

    public init(headlines: [Headline], index: Int, freshness: Freshness, error: String? = nil,
                partialFailures: [String] = [], budgetUsed: Int = 0, budgetLimit: Int = 0) {
        self.partialFailures = partialFailures.map(Markup.neutralise)
        self.headlines = headlines.map {
            var shown = $0
            shown.title = Markup.neutralise($0.title)
            shown.source = Markup.neutralise($0.source)
            return shown
        }
        self.index = headlines.isEmpty ? 0 : ((index % headlines.count) + headlines.count) % headlines.count
        self.freshness = freshness
        self.error = error.map(Markup.neutralise)
        self.budgetUsed = budgetUsed
        self.budgetLimit = budgetLimit
    }

    /// What every bar shows while the config does not load: `message` is `ConfigError.message`.
    public init(configError message: String) {
        self.init(headlines: [], index: 0, freshness: .empty, error: message)
        configError = message
    }

    /// The entry of a timeline at `now`, turned by the shared rotation offset (`next` / `prev`).
    public init(entry: TimelineEntry, offset: Int, budgetUsed: Int, budgetLimit: Int) {
        self.init(headlines: entry.content.headlines, index: StepCount.adding(entry.content.index, offset),
                  freshness: entry.content.freshness, error: entry.content.error,
                  partialFailures: entry.content.partialFailures ?? [], budgetUsed: budgetUsed, budgetLimit: budgetLimit)
    }

    public var current: Headline? { headlines.isEmpty ? nil : headlines[index] }

    /// True when keywords are set and the headline on display matches one.
    public var currentMatches: Bool { current.map(keywords.matches) ?? false }

    /// "fresh", "cached", "stale", "error" (failed with nothing to show) or "empty".
    public var stateName: String {
        if configError != nil || headlines.isEmpty { return configError == nil && error == nil ? "empty" : "error" }
        switch freshness {
        case .fresh: return "fresh"
        case .cached, .placeholder: return "cached"
        case .stale: return "stale"
        case .empty: return "empty"
        }
    }

    /// True when the headline on display was published within `BarText.newWindow`.
    public func isNew(now: Date) -> Bool {
        guard let current else { return false }
        return now.timeIntervalSince(current.publishedAt) < BarText.newWindow
    }

    /// When the bar lines for this state next read differently with no event (local midnight
    /// turns "14:05" into "Mon 14:05", the headline on display stops being "new"): the host
    /// sleeps until then.
    public func nextTextChange(now: Date) -> Date? {
        let day = BarClock.Day(now: now)
        var dates = headlines.compactMap { BarClock.nextChange($0.publishedAt, on: day) }
        if let current, isNew(now: now) { dates.append(current.publishedAt.addingTimeInterval(BarText.newWindow)) }
        return dates.filter { $0 > now }.min()
    }

    /// Share of the daily budget left, 0...100 (waybar's `percentage`).
    public var budgetPercentLeft: Int {
        guard budgetLimit > 0 else { return 100 }
        return max(0, min(100, (budgetLimit - budgetUsed) * 100 / budgetLimit))
    }
}

/// Text shaping shared by the bar renderers.
public enum BarText {
    /// A headline counts as "new" (the `new` class) for this long after it was published.
    public static let newWindow: TimeInterval = 15 * 60

    /// `text` cut to at most `max` characters at a word boundary, ending in "…".
    public static func truncate(_ text: String, to max: Int) -> String {
        guard text.count > max, max > 1 else { return text }
        let head = String(text.prefix(max - 1))
        // The cut falls between words already: keep the last whole word.
        if text.dropFirst(max - 1).first == " " { return head.trimmed() + "…" }
        if let space = head.lastIndex(of: " "), head.distance(from: head.startIndex, to: space) >= max / 2 {
            return String(head[..<space]).trimmed() + "…"
        }
        return head + "…"
    }

    /// The UTF-8 prefix of `text` of at most `bytes` bytes that does not split a character.
    public static func prefix(_ text: String, bytes: Int) -> String {
        var out = ""
        var used = 0
        for ch in text {
            let n = String(ch).utf8.count
            if used + n > bytes { break }
            out.append(ch)
            used += n
        }
        return out
    }

    /// "title — source · 14:05" (`BarClock`), one line, for a headline of a `BarState` (neutral text).
    public static func line(_ h: Headline, on day: BarClock.Day) -> String {
        h.title + " — " + source(h) + " · " + BarClock.describe(h.publishedAt, on: day)
    }

    /// Longest source name a bar shows: a feed may call itself by a whole paragraph.
    public static let maxSourceLength = 40

    /// The source of a `BarState`'s headline (neutral text), cut to `maxSourceLength` characters.
    public static func source(_ h: Headline) -> String {
        truncate(h.source, to: maxSourceLength)
    }

    /// What a bar shows when the config does not load: the sentence itself is for
    /// `headlines status` and the tooltip, the bar only points there.
    public static let configError = "headlines: config error (see headlines status)"

    /// `raw` encoded by `encode` (Pango escaping, JSON-safe swaps) in at most `bytes` UTF-8
    /// bytes. The raw text is cut first, a whole character at a time, and then encoded, so a cut
    /// never falls inside an entity such as `&amp;` (Pango rejects the whole text then); a cut
    /// text ends in "…". Never empty: i3blocks drops an empty full_text.
    public static func encoded(_ raw: String, bytes: Int, encode: (String) -> String) -> String {
        let whole = encode(raw)
        if whole.utf8.count <= bytes { return whole.isEmpty ? " " : whole }
        let ellipsis = encode("…")
        let budget = bytes - ellipsis.utf8.count
        var out = ""
        var used = 0
        for ch in raw {
            let piece = encode(String(ch))
            if used + piece.utf8.count > budget { break }
            out += piece
            used += piece.utf8.count
        }
        return out.isEmpty ? " " : out + ellipsis
    }
}
