import FoundationEssentials
import HeadlinesCore
import FeedXML

/// URLs as feeds write them: relative ones resolved against `xml:base` or the feed's own URL, and
/// only http(s) ones kept for links and images (a `javascript:` link parses, but is never offered).
enum FeedLinks {
    /// `raw` resolved against `base`, as an absolute URL with no base of its own (so two equal links
    /// compare equal however they were written); nil when it is empty or not a URL at all.
    static func resolve(_ raw: String, against base: URL?) -> URL? {
        let trimmed = raw.trimmingWhitespace
        guard !trimmed.isEmpty else { return nil }
        let candidate = URL(string: trimmed, relativeTo: base)
            ?? URL(string: percentEncoded(trimmed), relativeTo: base)
        guard let resolved = candidate else { return nil }
        return URL(string: resolved.absoluteString)
    }

    /// `resolve`, kept only when a browser may open it (http and https with a host).
    static func openable(_ raw: String?, against base: URL?) -> URL? {
        guard let raw, let url = resolve(raw, against: base), URLPolicy.isOpenable(url) else { return nil }
        return url
    }

    /// `text` with every byte a URL may not hold as is (spaces, quotes, `<>{}|\\^`, controls,
    /// non-ASCII) percent-encoded, as a sloppy feed's links need.
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for b in text.utf8 {
            if isAllowed(b) { out.append(b) } else {
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Letters, digits and `!$&'()*+,-./:;=?@_~[]#%`: what a query, path or host allows, plus the
    /// fragment mark and existing escapes.
    private static func isAllowed(_ b: UInt8) -> Bool {
        if (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) { return true }
        return "!$&'()*+,-./:;=?@_~[]#%".utf8.contains(b)
    }
}
