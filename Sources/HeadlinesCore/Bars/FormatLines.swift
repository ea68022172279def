import BarFormats
import FoundationEssentials

/// The outputs of the formats beyond waybar and i3blocks (`BarFormat`), one file each in the bar
/// folder. Every text is neutral (`BarState`) and cut first (`I3blocksRenderer.rawText`, `BarText.line`),
/// then escaped for its host; every click runs `headlines open --id KEY` for the headline shown.
public enum FormatLines {
    /// The byte bound of one line's text, after escaping: titles are cut to `max-length`
    /// characters long before this, so it only bounds pathological input.
    static let maxTextBytes = 1023
    /// Headlines in a tooltip or a menu (genmon, argos) and in conky's list.
    static let listCount = 10
    static let conkyCount = 5

    /// What one render needs beside the state.
    public struct Context: Sendable {
        public var now: Date
        public var maxLength: Int
        /// The `[widget NAME]` published for (nil for a config without widget groups): clicks name it.
        public var widget: String?
        /// Headline id to the local path of its thumbnail, for the widget document.
        public var thumbnails: [String: String]
        /// When the headlines on display were fetched.
        public var updatedAt: Date?
        /// The ids of a sync service's headlines opened here (`ReadMarks.read`), for the widget document.
        public var readIDs: Set<String> = []

        public init(now: Date, maxLength: Int, widget: String? = nil, thumbnails: [String: String] = [:], updatedAt: Date? = nil) {
            self.now = now
            self.maxLength = maxLength
            self.widget = widget
            self.thumbnails = thumbnails
            self.updatedAt = updatedAt
        }
    }

    /// `format`'s output for `state`; nil for waybar (its own renderer and file).
    public static func render(_ format: BarFormat, _ state: BarState, _ context: Context) -> String? {
        let raw = I3blocksRenderer.rawText(state, maxLength: context.maxLength)
        let key = state.current.map { HeadlineKey.of(id: $0.id) } ?? ""
        let open = key.isEmpty ? nil : HeadlineKey.openCommand(key: key, widget: context.widget)
        func cut(_ encode: (String) -> String, _ text: String = raw.full) -> String {
            BarText.encoded(text, bytes: maxTextBytes, encode: encode)
        }
        let color = I3blocksRenderer.color(state)
        let plainColor = state.stateName == "fresh" || state.stateName == "cached"
        switch format {
        case .waybar: return nil
        case .i3blocks:
            return I3blocksRenderer.keyedOneShot(state, maxLength: context.maxLength, pango: false)
        case .i3bar:
            let short = BarText.encoded(raw.short, bytes: 250, encode: { $0 })
            return "[{\"name\":\"headlines\",\"instance\":\"\(key)\",\"full_text\":\(JSONText.quote(cut { $0 })),"
                + "\"short_text\":\(JSONText.quote(short)),\"color\":\"\(color)\",\"markup\":\"none\"}]\n"
        case .polybar:
            var text = cut(Escape.polybar)
            if !plainColor { text = "%{F\(color)}" + text + "%{F-}" }
            guard let open else { return text + "\n" }
            return "%{A1:" + Escape.polybarCommand(open) + ":}" + text + "%{A}\n"
        case .lemonbar:
            var text = cut(Escape.lemonbar)
            if !plainColor { text = "%{F\(color)}" + text + "%{F-}" }
            return key.isEmpty ? text + "\n" : "%{A:open " + key + ":}" + text + "%{A}\n"
        case .yambar:
            let current = state.current
            let title = current.map { BarText.encoded(BarText.truncate($0.title, to: context.maxLength), bytes: maxTextBytes, encode: { $0 }) } ?? ""
            return "text|string|" + cut { $0 } + "\n"
                + "title|string|" + title + "\n"
                + "source|string|" + (current.map(BarText.source) ?? "") + "\n"
                + "state|string|" + state.stateName + "\n"
                + "id|string|" + key + "\n"
                + "new|bool|" + (state.isNew(now: context.now) ? "true" : "false") + "\n"
                + "match|bool|" + (state.currentMatches ? "true" : "false") + "\n"
                + "budget|range:0-100|\(state.budgetPercentLeft)\n\n"
        case .tmux:
            return cut(Escape.tmux) + "\n"
        case .xmobar:
            var text = cut(Escape.xmobarRaw)
            if !plainColor { text = "<fc=\(color)>" + text + "</fc>" }
            guard let open else { return text + "\n" }
            return "<action=`" + open + "` button=1>" + text + "</action>\n"
        case .genmon:
            var out = "<txt>" + cut(Escape.pango) + "</txt><tool>" + tooltip(state, context, encode: Escape.pango).joined(separator: "\n") + "</tool>"
            // The thumbnail beside the text; genmon reads the path up to the next `<`.
            if let current = state.current, let thumbnail = context.thumbnails[current.id],
               !thumbnail.contains("<"), !thumbnail.contains("\n") {
                out = "<img>" + thumbnail + "</img>" + out
            }
            if let open { out += "<txtclick>" + open + "</txtclick>" }
            return out + "\n"
        case .argos:
            let attributes = " unescape=false emojize=false trim=false"
            var out = cut(Escape.argosText) + " |" + attributes + (plainColor ? "" : " color=\(color)") + "\n---\n"
            let day = BarClock.Day(now: context.now)
            for h in state.headlines.prefix(listCount) {
                let line = BarText.encoded(BarText.line(h, on: day), bytes: maxTextBytes, encode: Escape.argosText)
                let command = HeadlineKey.openCommand(key: HeadlineKey.of(id: h.id), widget: context.widget)
                out += line + " | bash='" + command + "' terminal=false" + attributes + "\n"
            }
            return out
        case .plain:
            return cut(Escape.plain) + "\n"
        case .conky:
            let day = BarClock.Day(now: context.now)
            let lines = state.headlines.isEmpty ? [cut(Escape.conky)]
                : state.headlines.prefix(conkyCount).map { BarText.encoded(BarText.line($0, on: day), bytes: maxTextBytes, encode: Escape.conky) }
            return lines.joined(separator: "\n") + "\n"
        case .json:
            return WidgetDocument.render(state, context)
        }
    }

    /// The tooltip's lines: the headlines around, the one on display marked "▸ ", and the error.
    static func tooltip(_ state: BarState, _ context: Context, encode: (String) -> String) -> [String] {
        let day = BarClock.Day(now: context.now)
        var lines = state.headlines.prefix(listCount).enumerated().map { i, h in
            (i == state.index ? "▸ " : "") + BarText.encoded(BarText.line(h, on: day), bytes: maxTextBytes, encode: encode)
        }
        if let error = state.error { lines.append(BarText.encoded(error, bytes: maxTextBytes, encode: encode)) }
        return lines.isEmpty ? ["No headlines yet"] : lines
    }
}
