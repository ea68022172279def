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
    /// The item on display (what the bars show now).
    public var index: Int
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
    }

    /// Longest title a widget gets: a feed may send a whole article as its title.
    static let maxTitleLength = 300

    public init(_ state: BarState, _ context: FormatLines.Context) {
        let day = BarClock.Day(now: context.now)
        widget = context.widget
        self.state = state.stateName
        stale = state.stateName == "stale" || state.stateName == "error"
        updated_at = context.updatedAt
        error = state.configError != nil ? BarText.configError : state.error.map(Markup.neutralise)
        index = state.index
        items = state.headlines.map { h in
            Item(id: HeadlineKey.of(id: h.id), title: BarText.truncate(Markup.neutralise(h.title), to: Self.maxTitleLength),
                 source: BarText.source(h), published_at: h.publishedAt, age: BarClock.describe(h.publishedAt, on: day),
                 url: h.hasOpenableURL ? h.url.absoluteString : "", thumbnail: context.thumbnails[h.id],
                 match: state.keywords.matches(h), new: context.now.timeIntervalSince(h.publishedAt) < BarText.newWindow)
        }
    }

    /// The document on one line, ending in "\n" (JSON escapes every newline inside a value).
    public static func render(_ state: BarState, _ context: FormatLines.Context) -> String {
        let data = (try? StateJSONEncoder.headlines().encode(WidgetDocument(state, context))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
