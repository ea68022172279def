import BarFormats
import FoundationEssentials

/// i3blocks output. One-shot blocks (`interval=N`) get three lines: full_text, short_text and
/// color. Persist blocks get exactly one complete, non-empty line of at most 1023 bytes per write
/// (i3blocks 1.4 reads one read() as one line and cuts full_text at 1023 bytes). With
/// `format=json` each line is an object, without `"` or `\` inside values (1.4's parser cuts
/// values there). Pango escaping only when the block sets `markup=pango`.
public enum I3blocksRenderer {
    public static let maxLineBytes = 1023

    public struct Colors: Sendable {
        public static let fresh = BarColors.fresh
        public static let cached = BarColors.cached
        public static let stale = BarColors.stale
        public static let error = BarColors.error
    }

    public static func color(_ state: BarState) -> String {
        switch state.stateName {
        case "fresh": return Colors.fresh
        case "cached": return Colors.cached
        case "stale": return Colors.stale
        default: return Colors.error
        }
    }

    /// The raw (unescaped) full_text and short_text: titles cut to `maxLength` characters, the
    /// source to `BarText.maxSourceLength`. Escaping and the byte cut come after (`encoded`).
    static func rawText(_ state: BarState, maxLength: Int) -> (full: String, short: String) {
        if state.configError != nil { return (BarText.configError, "headlines: config error") }
        guard let current = state.current else {
            let text = state.error == nil ? "No headlines yet" : "Headlines unavailable"
            return (text, text)
        }
        let title = current.title
        var full = BarText.truncate(title, to: maxLength) + " — " + BarText.source(current)
        var short = BarText.truncate(title, to: max(10, maxLength / 2))
        if state.stateName == "stale" { full = "⚠ " + full; short = "⚠ " + short }
        return (full, short)
    }

    /// Both texts encoded for the block, each within `bytes`: Pango-escaped when `pango`, then
    /// swapped by `json` (identity outside format=json).
    static func fullText(_ state: BarState, maxLength: Int, pango: Bool, bytes: (full: Int, short: Int) = (maxLineBytes, maxLineBytes),
                         json: @escaping (String) -> String = { $0 }) -> (full: String, short: String) {
        let raw = rawText(state, maxLength: maxLength)
        let encode: (String) -> String = { json(pango ? Markup.escape($0) : $0) }
        // A headline matching a keyword is bold under markup=pango; the tags count in the budget.
        let bold = pango && state.currentMatches
        let tags = bold ? "<b></b>".utf8.count : 0
        let mark: (String) -> String = { bold ? "<b>" + $0 + "</b>" : $0 }
        return (mark(BarText.encoded(raw.full, bytes: bytes.full - tags, encode: encode)),
                mark(BarText.encoded(raw.short, bytes: bytes.short - tags, encode: encode)))
    }

    /// The three lines of a one-shot block.
    public static func oneShot(_ state: BarState, maxLength: Int, pango: Bool) -> String {
        let text = fullText(state, maxLength: maxLength, pango: pango)
        return text.full + "\n" + text.short + "\n" + color(state) + "\n"
    }

    /// The one-shot's lines after the key of the headline they show (an empty line for none),
    /// which `headlines-bar i3blocks` records so that a click opens that headline.
    public static func keyedOneShot(_ state: BarState, maxLength: Int, pango: Bool) -> String {
        (state.current.map { HeadlineKey.of(id: $0.id) } ?? "") + "\n" + oneShot(state, maxLength: maxLength, pango: pango)
    }

    /// One persist line (raw format): full_text only.
    public static func persistLine(_ state: BarState, maxLength: Int, pango: Bool) -> String {
        fullText(state, maxLength: maxLength, pango: pango).full + "\n"
    }

    /// One persist line under `format=json`: {"full_text":..,"short_text":..,"color":..}, with
    /// `"` and `\` replaced so 1.4's naive parser reads it whole.
    public static func persistJSONLine(_ state: BarState, maxLength: Int, pango: Bool) -> String {
        // Budget the values so the whole line stays under the limit.
        let text = fullText(state, maxLength: maxLength, pango: pango, bytes: (700, 250)) {
            $0.replacingAll("\\", with: "/").replacingAll("\"", with: "”")
        }
        let (full, short) = text
        return "{\"full_text\":\"\(full)\",\"short_text\":\"\(short)\",\"color\":\"\(color(state))\"}\n"
    }
}
