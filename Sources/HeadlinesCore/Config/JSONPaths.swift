import FoundationEssentials

/// `provider = json`: dotted key paths into the API's JSON (see JSONAPIProvider).
public struct JSONPaths: Sendable, Equatable {
    public var items: String          // "" = the document is the list
    public var title: String
    public var link: String?
    public var linkTemplate: String?  // "{id}" (or "{KEY.PATH}") is replaced by that value
    public var date: String?
    public var id: String?
    public var source: String?
    public var image: String?
    /// The discussion page's link inside an item.
    public var comments: String?
    /// Where an error answer keeps its message ("message", "error.message").
    public var error: String?
    /// Decode HTML entities in links and image links (Reddit's `&amp;` in preview URLs); titles always are.
    public var htmlUnescape = false

    public init(items: String = "", title: String = "title", link: String? = "url", linkTemplate: String? = nil,
                date: String? = nil, id: String? = "id", source: String? = nil) {
        self.items = items
        self.title = title
        self.link = link
        self.linkTemplate = linkTemplate
        self.date = date
        self.id = id
        self.source = source
    }
}

extension JSONPaths {
    /// Every path, spelled out, for comparing configs by text. Not `"\(paths)"`: string
    /// interpolation of a plain struct goes through the runtime's reflection, which is slow and
    /// whose output is not a stable format.
    public var identity: String {
        var parts = [items, title, link ?? "-", linkTemplate ?? "-", date ?? "-", id ?? "-", source ?? "-"]
        // Only when set, so a config without them keeps the identity it had.
        if image != nil || comments != nil || htmlUnescape { parts += [image ?? "-", comments ?? "-", htmlUnescape ? "unescape" : "-"] }
        return parts.joined(separator: "\u{1F}")
    }
}


/// Where `provider = json` sends its key: a header, or a query parameter for APIs that take it
/// only there (the URL is then never shown: see `HTTPRequest.keyQueryParameter`).
public enum JSONKeyPlacement: Sendable, Equatable {
    case header(String)
    case queryParameter(String)
}
