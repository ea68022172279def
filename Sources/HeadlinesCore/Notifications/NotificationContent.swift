import FoundationEssentials

/// What the notification server can do, from GetCapabilities.
public struct NotificationCapabilities: OptionSet, Sendable, Equatable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let actions = NotificationCapabilities(rawValue: 1)
    public static let bodyMarkup = NotificationCapabilities(rawValue: 2)
    public static let bodyHyperlinks = NotificationCapabilities(rawValue: 4)

    public init(names: [String]) {
        var caps: NotificationCapabilities = []
        if names.contains("actions") { caps.insert(.actions) }
        if names.contains("body-markup") { caps.insert(.bodyMarkup) }
        if names.contains("body-hyperlinks") { caps.insert(.bodyHyperlinks) }
        self = caps
    }
}

/// The text of one notification, escaped for what the server understands.
public struct NotificationContent: Equatable, Sendable {
    /// The title, as plain text: the spec defines the summary as plain text, and dunst, mako and
    /// GNOME escape it themselves (escaping it here would show `&amp;` on screen).
    public var summary: String
    public var body: String

    public init(summary: String, body: String) {
        self.summary = summary
        self.body = body
    }

    public static let appName = "Headlines"
    public static let desktopEntry = "headlines"
    public static let category = "x-headlines.news"
    public static let iconName = "headlines"
    public static let expireMilliseconds: Int32 = 10_000

    public static func headline(_ h: Headline, now: Date, caps: NotificationCapabilities) -> NotificationContent {
        let markup = caps.contains(.bodyMarkup)
        let esc: (String) -> String = { markup ? Markup.escape($0) : $0 }
        var body = esc(Markup.neutralise(h.source)) + " · " + RelativeAge.describe(h.publishedAt, now: now)
        if let summary = h.summary, !summary.isEmpty { body += "\n" + esc(Markup.neutralise(summary)) }
        if !caps.contains(.actions) {
            // No click: give the link itself, as a hyperlink where the server makes those.
            let link = h.url.absoluteString
            if caps.contains(.bodyHyperlinks) && markup {
                body += "\n<a href=\"\(Markup.escapeAttribute(link))\">\(Markup.escape(link))</a>"
            } else {
                body += "\n" + link
            }
        }
        return NotificationContent(summary: Markup.neutralise(h.title), body: body)
    }

    /// One action a notification offers: the key the server sends back and the label it shows.
    public struct Action: Equatable, Sendable {
        public var key: String
        public var label: String
    }

    /// A headline's actions. "default" is the click, and servers list it in their context menu
    /// under its label too (dunst does): so it is labelled "Open" and there is no second "Open"
    /// action beside it.
    public static let headlineActions = [Action(key: "default", label: "Open"), Action(key: "mute", label: "Mute source")]
    /// The "N more headlines" summary's one action.
    public static let moreActions = [Action(key: "default", label: "Show all")]

    public static func more(_ count: Int, caps: NotificationCapabilities) -> NotificationContent {
        let hint = caps.contains(.actions) ? "Click to pick one." : "Run `headlines list` to see them."
        return NotificationContent(summary: "\(count) more headline\(count == 1 ? "" : "s")", body: hint)
    }
}

/// Pango/notification markup escaping, shared by notifications and bars.
public enum Markup {
    /// `&`, `<`, `>` escaped: GTK and Pango reject markup with a bare `&` and blank the whole
    /// text. Scalar by scalar: a combining mark after `&` makes one Character of the two, which a
    /// per-Character escape would let through raw. Notifications and bars both escape here.
    public static func escape(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            switch u {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            default: out.append(u)
            }
        }
        return String(out)
    }

    public static func escapeAttribute(_ s: String) -> String {
        escape(s).replacingAll("\"", with: "&quot;").replacingAll("'", with: "&apos;")
    }

    /// Control characters, newlines and bidi overrides replaced by a space or removed, so a title
    /// can neither break a line protocol nor reorder the text around it.
    public static func neutralise(_ s: String) -> String {
        var scalars = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if TerminalText.isUnsafe(u) {
                if u.properties.isWhitespace || u.value < 0x20 { scalars.append(" ") }
            } else {
                scalars.append(u)
            }
        }
        return TextCleaning.collapseWhitespace(String(scalars))
    }
}
