import Foundation

/// URLs as feeds write them: relative ones resolved against `xml:base` or the feed's own URL, and
/// only http(s) ones kept for links and images (a `javascript:` link parses, but is never offered).
enum FeedLinks {
    /// `raw` resolved against `base`, as an absolute URL with no base of its own (so two equal links
    /// compare equal however they were written); nil when it is empty or not a URL at all.
    static func resolve(_ raw: String, against base: URL?) -> URL? {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        let candidate = URL(string: trimmed, relativeTo: base)
            ?? trimmed.addingPercentEncoding(withAllowedCharacters: urlCharacters).flatMap { URL(string: $0, relativeTo: base) }
        guard let resolved = candidate else { return nil }
        return URL(string: resolved.absoluteString)
    }

    /// `resolve`, kept only when a browser may open it (http and https with a host).
    static func openable(_ raw: String?, against base: URL?) -> URL? {
        guard let raw, let url = resolve(raw, against: base), URLPolicy.isOpenable(url) else { return nil }
        return url
    }

    /// What may stay unescaped in a URL: spaces and the like in a sloppy feed get percent-encoded.
    private static let urlCharacters: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.formUnion(.urlPathAllowed)
        set.formUnion(.urlHostAllowed)
        set.insert(charactersIn: "#%")
        return set
    }()
}
