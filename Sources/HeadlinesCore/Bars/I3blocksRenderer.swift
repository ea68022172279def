import FoundationEssentials

/// i3blocks output. One-shot blocks (`interval=N`) get three lines: full_text, short_text and
/// color. Persist blocks get exactly one complete, non-empty line of at most 1023 bytes per write
/// (i3blocks 1.4 reads one read() as one line and cuts full_text at 1023 bytes). With
/// `format=json` each line is an object, without `"` or `\` inside values (1.4's parser cuts
/// values there). Pango escaping only when the block sets `markup=pango`.
public enum I3blocksRenderer {
    public static let maxLineBytes = 1023

    public struct Colors: Sendable {
        public static let fresh = "#E5E9F0"
        public static let cached = "#D8DEE9"
        public static let stale = "#EBCB8B"
        public static let error = "#BF616A"
    }

    public static func color(_ state: BarState) -> String {
        switch state.stateName {
        case "fresh": return Colors.fresh
        case "cached": return Colors.cached
        case "stale": return Colors.stale
        default: return Colors.error
        }
    }

    static func fullText(_ state: BarState, maxLength: Int, pango: Bool) -> (full: String, short: String) {
        guard let current = state.current else {
            let text = state.error == nil ? "No headlines yet" : "Headlines unavailable"
            return (text, text)
        }
        let title = Markup.neutralise(current.title)
        let source = Markup.neutralise(current.source)
        var full = BarText.truncate(title, to: maxLength) + " — " + source
        var short = BarText.truncate(title, to: max(10, maxLength / 2))
        if state.stateName == "stale" { full = "⚠ " + full; short = "⚠ " + short }
        let esc: (String) -> String = { pango ? Markup.escape($0) : $0 }
        return (fit(esc(full)), fit(esc(short)))
    }

    /// A value that fits i3blocks' 1023-byte full_text, never empty.
    static func fit(_ s: String) -> String {
        let cut = BarText.prefix(s, bytes: maxLineBytes)
        return cut.isEmpty ? " " : cut
    }

    /// The three lines of a one-shot block.
    public static func oneShot(_ state: BarState, maxLength: Int, pango: Bool) -> String {
        let text = fullText(state, maxLength: maxLength, pango: pango)
        return text.full + "\n" + text.short + "\n" + color(state) + "\n"
    }

    /// One persist line (raw format): full_text only.
    public static func persistLine(_ state: BarState, maxLength: Int, pango: Bool) -> String {
        fullText(state, maxLength: maxLength, pango: pango).full + "\n"
    }

    /// One persist line under `format=json`: {"full_text":..,"short_text":..,"color":..}, with
    /// `"` and `\` replaced so 1.4's naive parser reads it whole.
    public static func persistJSONLine(_ state: BarState, maxLength: Int, pango: Bool) -> String {
        let text = fullText(state, maxLength: maxLength, pango: pango)
        func safe(_ s: String) -> String {
            s.replacingAll("\\", with: "/").replacingAll("\"", with: "”")
        }
        // Budget the values so the whole line stays under the limit.
        let full = BarText.prefix(safe(text.full), bytes: 700)
        let short = BarText.prefix(safe(text.short), bytes: 250)
        return "{\"full_text\":\"\(full)\",\"short_text\":\"\(short)\",\"color\":\"\(color(state))\"}\n"
    }
}
