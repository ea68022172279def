import BarFormats
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

/// One notification as it is sent: its text, escaped for what the server understands, and its
/// actions.
public struct NotificationContent: Equatable, Sendable {
    /// The title, as plain text: the spec defines the summary as plain text, and dunst, mako and
    /// GNOME escape it themselves (escaping it here would show `&amp;` on screen).
    public var summary: String
    public var body: String
    /// Sent to every server, whatever its capabilities say: one that has no actions ignores them,
    /// and one whose list is out of date by the time the notification shows (xfce4-notifyd
    /// leaving do-not-disturb) still gets a click that opens.
    public var actions: [Action]
    public var category: Category

    public init(summary: String, body: String, actions: [Action] = [], category: Category = .article) {
        self.summary = summary
        self.body = body
        self.actions = actions
        self.category = category
    }

    /// The `category` hint, which a user's server rules match (dunst's `category`, mako's
    /// `category=`, swaync's `category`): the spec has no news category, so these take its
    /// vendor form `x-vendor.class`. The man page headlines.conf(5) lists them.
    public enum Category: String, Sendable, CaseIterable {
        /// One headline.
        case article = "x-headlines.article"
        /// Several headlines in one: a source's digest, or the summary of those held back.
        case digest = "x-headlines.digest"
        /// Something went wrong that the user must hear of now, such as a click that opened nothing.
        case error = "x-headlines.error"
    }

    public static let appName = "Headlines"
    /// The `desktop-entry` hint: the basename of packaging/headlines.desktop, which GNOME and KDE
    /// list in their notification settings.
    public static let desktopEntry = "headlines"
    public static let iconName = "headlines"
    public static let expireMilliseconds: Int32 = 10_000

    /// Markup only where the server reports `body-markup` (elsewhere it shows through as text),
    /// every piece of the headline escaped for it. Where the server reports no `actions`, nothing
    /// can be clicked, so the body carries the link itself: a hyperlink where it also reports
    /// `body-hyperlinks`, the address as text otherwise.
    /// `markRead`: the headline comes from a sync service, and "Mark read" is offered.
    public static func headline(_ h: Headline, now: Date, caps: NotificationCapabilities, markRead: Bool = false) -> NotificationContent {
        let markup = caps.contains(.bodyMarkup)
        let esc: (String) -> String = { markup ? Markup.escape($0) : $0 }
        var body = esc(Markup.neutralise(h.source)) + " · " + RelativeAge.describe(h.publishedAt, now: now)
        if let summary = h.summary, !summary.isEmpty { body += "\n" + esc(Markup.neutralise(summary)) }
        if !caps.contains(.actions) {
            let link = h.url.absoluteString
            if markup && caps.contains(.bodyHyperlinks) {
                body += "\n<a href=\"\(Markup.escapeAttribute(link))\">\(Markup.escape(link))</a>"
            } else {
                body += "\n" + esc(link)
            }
        }
        return NotificationContent(summary: Markup.neutralise(h.title), body: body,
                                   actions: actions(for: h) + (markRead ? [markReadAction] : []), category: .article)
    }

    /// One action a notification offers: the key the server sends back and the label it shows.
    public struct Action: Equatable, Sendable {
        public var key: String
        public var label: String
    }

    /// A headline's actions. "default" is the click, and servers that show actions as buttons or
    /// a menu show it under its label too (xfce4-notifyd draws it as a button, dunst lists it in
    /// its context menu): so it is the labelled "Open", and no second "Open" action repeats it.
    public static let headlineActions = [Action(key: "default", label: "Open"), Action(key: "mute", label: "Mute source")]
    /// A sync service's headline: read on the service without opening it.
    public static let markReadAction = Action(key: "mark-read", label: "Mark read")
    /// The discussion page, offered beside "Open" for headlines that have one (Hacker News, Reddit, Lobsters).
    public static let commentsAction = Action(key: "comments", label: "Comments")

    /// A headline's actions: "Comments" after "Open" when its discussion is a page of its own.
    public static func actions(for h: Headline) -> [Action] {
        guard let comments = h.commentsURL, comments != h.url, URLPolicy.isOpenable(comments) else { return headlineActions }
        return [headlineActions[0], commentsAction] + headlineActions.dropFirst()
    }

    /// The one action of a digest and of the summary after quiet: it opens `headlines menu`.
    public static let moreActions = [Action(key: "default", label: "Show all")]

    /// "BBC News: 3 new", "First title, and 2 more"; where nothing can be clicked, how to see them.
    public static func digest(_ digest: SourceDigest, caps: NotificationCapabilities) -> NotificationContent {
        let esc: (String) -> String = { caps.contains(.bodyMarkup) ? Markup.escape($0) : $0 }
        var body = esc(Markup.neutralise(digest.newest.title))
        if digest.count > 1 { body += ", and \(digest.count - 1) more" }
        if !caps.contains(.actions) { body += "\n" + pickHint(caps) }
        return NotificationContent(summary: Markup.neutralise(digest.source) + ": \(digest.count) new", body: body,
                                   actions: moreActions, category: .digest)
    }

    /// The one notification after Do Not Disturb or quiet hours, or past max-per-hour: "5 new
    /// headlines while Do Not Disturb was on". Its click opens the menu, as a digest's does.
    public static func held(_ held: HeldHeadlines, caps: NotificationCapabilities) -> NotificationContent {
        NotificationContent(summary: NumberText.counted(held.count, "new headline") + " " + held.reason.phrase,
                            body: pickHint(caps), actions: moreActions, category: .digest)
    }

    /// A summary's body: how to get at the headlines it counts.
    private static func pickHint(_ caps: NotificationCapabilities) -> String {
        caps.contains(.actions) ? "Click to pick one." : "Run `headlines list` to see them."
    }
}

/// Pango/notification markup escaping, shared by notifications and bars.
public enum Markup {
    /// `&`, `<`, `>` escaped: GTK and Pango reject markup with a bare `&` and blank the whole
    /// text. Scalar by scalar: a combining mark after `&` makes one Character of the two, which a
    /// per-Character escape would let through raw. Notifications and bars both escape here.
    public static func escape(_ s: String) -> String { Escape.pango(s) }

    public static func escapeAttribute(_ s: String) -> String {
        escape(s).replacingAll("\"", with: "&quot;").replacingAll("'", with: "&apos;")
    }

    /// Control characters, newlines and bidi overrides replaced by a space or removed, so a title
    /// can neither break a line protocol nor reorder the text around it.
    public static func neutralise(_ s: String) -> String {
        // Most text has nothing to replace: checking costs a fraction of rebuilding it.
        guard s.unicodeScalars.contains(where: TerminalText.isUnsafe) else { return TextCleaning.collapseWhitespace(s) }
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
