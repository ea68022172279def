import BarFormats
import FoundationEssentials

/// The widget document (`bar/widget.json`, streamed by `headlines-bar json`) for desktop-widget
/// hosts (eww, ags, Quickshell, conky, KDE, GNOME): one JSON object on one line, everything a
/// widget draws, so no widget needs the cache's own format.
public struct WidgetDocument: Equatable {
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

    public struct Item: Equatable {
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
        /// Opened here from a sync service's list: marked read there, or queued to be (it
        /// leaves the list at the next reload). Always false for the other sources.
        public var read = false

        /// The item as one JSON object, keys in byte order; every key is always there (null
        /// when unknown).
        func write(to json: inout JSONText.Writer) {
            json.beginObject()
            json.key("age"); json.string(age)
            json.key("id"); json.string(id)
            json.key("match"); json.bool(match)
            json.key("new"); json.bool(new)
            json.key("published_at"); json.string(ISO8601.format(published_at))
            json.key("read"); json.bool(read)
            json.key("source"); json.string(source)
            json.key("thumbnail"); json.string(thumbnail)
            json.key("title"); json.string(title)
            json.key("url"); json.string(url)
            json.endObject()
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
                 match: state.keywords.matches(h), new: context.now.timeIntervalSince(h.publishedAt) < BarText.newWindow,
                 read: context.readIDs.contains(h.id))
        }
    }

    /// The document as one JSON object, keys in byte order. Every key is always there (null
    /// when unknown), so a widget's expressions never meet a missing key.
    public var json: String {
        var json = JSONText.Writer(capacity: 512 * (items.count + 1))
        json.beginObject()
        json.key("error"); json.string(error)
        json.key("index"); json.number(index)
        json.key("items"); json.beginArray(); items.forEach { $0.write(to: &json) }; json.endArray()
        json.key("stale"); json.bool(stale)
        json.key("state"); json.string(state)
        json.key("updated_at"); json.string(updated_at.map { ISO8601.format($0) })
        json.key("widget"); json.string(widget)
        json.endObject()
        return json.text
    }

    /// The document on one line, ending in "\n" (JSON escapes every newline inside a value).
    public static func render(_ state: BarState, _ context: FormatLines.Context) -> String {
        WidgetDocument(state, context).json + "\n"
    }
}
