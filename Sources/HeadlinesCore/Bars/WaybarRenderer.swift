import BarFormats
import FoundationEssentials

/// One line of waybar's custom-module JSON (`"return-type": "json"`): text, tooltip, class, alt,
/// percentage. `text` and `tooltip` are Pango markup to waybar, and an unescaped `&` or `<` blanks
/// the module, so every headline (neutral already: `BarState`) is escaped here; the line never contains a raw
/// newline.
public enum WaybarRenderer {
    public struct Line: Equatable {
        public var text: String
        public var tooltip: String
        public var `class`: [String]
        public var alt: String
        public var percentage: Int
    }

    public static func line(_ state: BarState, now: Date, maxLength: Int, tooltipCount: Int = 10) -> Line {
        var classes = [state.stateName]
        if state.isNew(now: now) { classes.append("new") }
        if !state.partialFailures.isEmpty { classes.append("partial") }
        if state.currentMatches { classes.append("match") }
        let text: String
        if state.configError != nil {
            text = BarText.configError
        } else if let current = state.current {
            text = Markup.escape(BarText.truncate(current.title, to: maxLength))
        } else {
            text = state.error == nil ? "No headlines yet" : "Headlines unavailable"
        }
        var tooltip: [String] = []
        let day = BarClock.Day(now: now)
        for (i, h) in state.headlines.prefix(tooltipCount).enumerated() {
            let line = Markup.escape(BarText.line(h, on: day))
            if state.keywords.isEmpty {
                tooltip.append(i == state.index ? "<b>\(line)</b>" : line)
            } else {
                // With keywords, bold means "matches", so the line on display is marked by "▸ ".
                let marked = (i == state.index ? "▸ " : "") + line
                tooltip.append(state.keywords.matches(h) ? "<b>\(marked)</b>" : marked)
            }
        }
        if let error = state.error {
            tooltip.append("<i>\(Markup.escape(error))</i>")
        }
        if !state.partialFailures.isEmpty {
            let count = state.partialFailures.count
            tooltip.append("<i>\(count) feed\(count == 1 ? "" : "s") failing: see headlines status</i>")
            for failure in state.partialFailures.prefix(3) {
                tooltip.append("<i>\(Markup.escape(BarText.truncate(failure, to: 160)))</i>")
            }
        }
        if tooltip.isEmpty { tooltip.append("No headlines yet") }
        return Line(text: text, tooltip: tooltip.joined(separator: "\n"), class: classes,
                    alt: state.stateName, percentage: state.budgetPercentLeft)
    }

    /// The JSON object on one line, ending in "\n".
    public static func render(_ state: BarState, now: Date, maxLength: Int) -> String {
        let line = line(state, now: now, maxLength: maxLength)
        var json = JSONText.Writer(capacity: 2048)
        json.beginObject()
        json.key("alt"); json.string(line.alt)
        json.key("class"); json.beginArray(); line.class.forEach { json.string($0) }; json.endArray()
        json.key("percentage"); json.number(line.percentage)
        json.key("text"); json.string(line.text)
        json.key("tooltip"); json.string(line.tooltip)
        json.endObject()
        return json.text + "\n"
    }
}
