import FoundationEssentials

/// `[source] feeds-from = PATH[#tag1,tag2]`: a subscription file (OPML or a newsboat `urls` file)
/// and the tags to take from it. Only its shape lives here: the file is read where feeds are
/// fetched (HeadlinesSources), at every reload, never by the config parser or the resident host.
public struct FeedsFrom: Equatable, Sendable {
    /// The path as written: `~` and `$HOME` at its start are expanded by `expandedPath(home:)`.
    public var path: String
    /// Feeds carrying one of these tags are kept (compared case-insensitively); empty = every feed.
    public var tags: [String]

    public init(path: String, tags: [String] = []) {
        self.path = path
        self.tags = tags
    }

    /// `PATH`, `PATH#tag` or `PATH#tag1,tag2`: the last `#` starts the tags, so a path may hold
    /// one too. nil for an empty path or a `#` with no tag after it.
    public static func parse(_ value: String) -> FeedsFrom? {
        let text = value.trimmed()
        guard let mark = text.lastIndex(of: "#") else { return text.isEmpty ? nil : FeedsFrom(path: text) }
        let path = String(text[..<mark]).trimmed()
        let tags = text[text.index(after: mark)...].split(separator: ",").map { String($0).trimmed() }.filter { !$0.isEmpty }
        guard !path.isEmpty, !tags.isEmpty else { return nil }
        return FeedsFrom(path: path, tags: tags)
    }

    /// The path with a leading `~` or `$HOME` (also `${HOME}`) replaced by `home`; unchanged without one.
    public func expandedPath(home: String?) -> String {
        guard let home, !home.isEmpty else { return path }
        for prefix in ["~", "$HOME", "${HOME}"] where path == prefix || path.hasPrefix(prefix + "/") {
            return home + path.dropFirst(prefix.count)
        }
        return path
    }

    /// As the user wrote it: `PATH#tag1,tag2`.
    public var written: String { tags.isEmpty ? path : path + "#" + tags.joined(separator: ",") }
}
