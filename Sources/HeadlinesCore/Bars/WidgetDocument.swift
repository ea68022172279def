import BarFormats
import FoundationEssentials

/// The widget document (`bar/widget.json`, streamed by `headlines-bar json`) for desktop-widget
/// hosts (eww, ags, Quickshell, conky, KDE, GNOME): one JSON object on one line, everything a
/// widget draws, so no widget needs the cache's own format.
public struct WidgetDocument: Encodable, Equatable {
    public var widget: String?
    /// "fresh", "cached", "stale", "error" or "empty" (`BarState.stateName`).
    public var state: String
    /// True when what is shown is older than the schedule promised, or could not be refreshed.
    public var stale: Bool
    /// When the headlines were fetched.
    public var updated_at: Date?
    public var error: String?
    /// The item on display (what the bars show now), when it is among `items`.
    public var index: Int?
    public var items: [Item]

    public struct Item: Encodable, Equatable {
        /// The key `headlines open --id` takes.
        public var id: String
        public var title: String
        public var source: String
        public var published_at: Date
        /// The bars' age label ("14:05", "Mon 14:05", "2 Mar").
        public var age: String
        public var url: String
        /// A small square image, when the headline has one.
        public var thumbnail: String?
        /// It matched a `[notify] keywords` word.
        public var match: Bool
        /// Published within the last 15 minutes (the bars' `new` class).
        public var new: Bool

        private enum Keys: String, CodingKey { case id, title, source, published_at, age, url, thumbnail, match, new }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(id, forKey: .id)
            try c.encode(title, forKey: .title)
            try c.encode(source, forKey: .source)
            try c.encode(published_at, forKey: .published_at)
            try c.encode(age, forKey: .age)
            try c.encode(url, forKey: .url)
            try c.encode(thumbnail, forKey: .thumbnail)
            try c.encode(match, forKey: .match)
            try c.encode(new, forKey: .new)
        }
    }

    /// Longest title a widget gets: a feed may send a whole article as its title.
    static let maxTitleLength = 300
    /// Items and link length in the document, so that it stays well inside what `headlines-bar`
    /// reads (`BarFormat.maxFileBytes`) whatever a feed sends.
    static let maxItems = 50
    static let maxURLBytes = 2048

    public init(_ state: BarState, _ context: FormatLines.Context) {
        let day = BarClock.Day(now: context.now)
        widget = context.widget
        self.state = state.stateName
        stale = state.stateName == "stale" || state.stateName == "error"
        updated_at = context.updatedAt
        error = state.configError != nil ? BarText.configError : state.error
        index = state.index < Self.maxItems ? state.index : nil
        items = state.headlines.prefix(Self.maxItems).map { h in
            Item(id: HeadlineKey.of(id: h.id), title: BarText.truncate(h.title, to: Self.maxTitleLength),
                 source: BarText.source(h), published_at: h.publishedAt, age: BarClock.describe(h.publishedAt, on: day),
                 url: h.hasOpenableURL && h.url.absoluteString.utf8.count <= Self.maxURLBytes ? h.url.absoluteString : "", thumbnail: context.thumbnails[h.id],
                 match: state.keywords.matches(h), new: context.now.timeIntervalSince(h.publishedAt) < BarText.newWindow)
        }
    }

    // Every key is always there (null when unknown), so a widget's expressions never meet a
    // missing key.
    private enum Keys: String, CodingKey { case widget, state, stale, updated_at, error, index, items }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(widget, forKey: .widget)
        try c.encode(state, forKey: .state)
        try c.encode(stale, forKey: .stale)
        try c.encode(updated_at, forKey: .updated_at)
        try c.encode(error, forKey: .error)
        try c.encode(index, forKey: .index)
        try c.encode(items, forKey: .items)
    }

    /// The document on one line, ending in "\n" (JSON escapes every newline inside a value).
    public static func render(_ state: BarState, _ context: FormatLines.Context) -> String {
        let data = (try? StateJSONEncoder.headlines().encode(WidgetDocument(state, context))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
