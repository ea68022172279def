import FoundationEssentials
import HeadlinesCore
import FeedXML

/// Text from a feed made plain: markup reduced to text (script and style dropped with their
/// content), HTML entities decoded, whitespace collapsed. Feeds put HTML in titles whatever their
/// format says, so every text goes through the same reduction; the renderers escape what is left.
enum FeedText {
    static let summaryLimit = 300

    /// A title or other short text, or nil when nothing readable is left.
    static func plain(_ raw: String?) -> String? {
        guard let raw else { return nil }
        let text = decodedAndCollapsed(stripTags(repairingDoubleEncoding(raw)))
        return text.isEmpty ? nil : text
    }

    /// Text whose UTF-8 bytes a feed's producer decoded as Latin-1 once too often ("Piratage
    /// imputÃ© Ã la Russie", seen at Le Monde, Spiegel, FAZ ...) read back as UTF-8, as feedparser
    /// does: only when every character fits in one byte AND those bytes are valid UTF-8 with at
    /// least one multi-byte sequence, which real Latin-1 text ("Café", a lone "é") never is.
    static func repairingDoubleEncoding(_ text: String) -> String {
        // On the UTF-8 bytes: U+0080...U+00FF are the two-byte sequences that start 0xC2 or 0xC3.
        var utf8 = text
        let repaired = utf8.withUTF8 { bytes -> String? in
            var multiByte = false
            for b in bytes {
                if b >= 0xC4 { return nil }
                if b >= 0xC2 { multiByte = true }
            }
            guard multiByte else { return nil }
            var latin1: [UInt8] = []
            latin1.reserveCapacity(bytes.count)
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                if b < 0x80 { latin1.append(b); i += 1; continue }
                latin1.append((b & 0x03) << 6 | bytes[i + 1] & 0x3F)
                i += 2
            }
            return String(validating: latin1, as: UTF8.self)
        }
        return repaired ?? text
    }

    /// A summary: plain text clipped at a word boundary to about `summaryLimit` characters.
    static func summary(_ raw: String?) -> String? {
        guard let text = plain(raw) else { return nil }
        return clip(text, to: summaryLimit)
    }

    /// `text` cut to at most `limit` Characters, at a space in its last third, with an ellipsis.
    /// `clip` (FeedText+Bytes.swift) gives the same on scalars where it can.
    static func clipByCharacters(_ text: String, to limit: Int) -> String {
        // Whether there are more than `limit` Characters, without counting all of a long text.
        guard text.utf8.count > limit, let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex),
              end != text.endIndex else { return text }
        var cut = text.prefix(limit - 1)
        if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > limit * 2 / 3 {
            cut = cut[..<space]
        }
        while let last = cut.last, last.isWhitespace || ",;:-–—".contains(last) { cut.removeLast() }
        return cut + "…"
    }

    /// An author as RSS writes one: "jo@example.com (Jo Bloggs)" and "Jo Bloggs <jo@example.com>"
    /// both become "Jo Bloggs"; a bare address stays.
    static func authorName(_ raw: String?) -> String? {
        guard let text = plain(raw) else { return nil }
        if let open = text.firstIndex(of: "("), text.hasSuffix(")") {
            let outside = text[..<open].trimmingWhitespace
            let inside = text[text.index(after: open)..<text.index(before: text.endIndex)].trimmingWhitespace
            if outside.contains("@"), !inside.isEmpty { return inside }
            if !outside.isEmpty { return outside }
        }
        if let open = text.firstIndex(of: "<"), text.hasSuffix(">") {
            let outside = text[..<open].trimmingWhitespace
            if !outside.isEmpty { return outside }
        }
        return text
    }

    /// `values` without repeats, first occurrence kept.
    static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }

    /// Inline elements vanish without a trace ("<b>Tom</b>'s" is "Tom's"); every other tag becomes a
    /// space, so "<p>one</p><p>two</p>" does not run together.
    private static let inlineTags: Set<String> = [
        "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i", "kbd", "mark",
        "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr",
    ]
    private static let droppedWithContent: Set<String> = ["script", "style"]

    /// Removes what looks like a tag: `<` then a letter, `/`, `!` or `?`, up to the next `>`. A `<`
    /// followed by anything else ("a < b") is text. Linear in the input, whatever it holds.
    static func stripTags(_ s: String) -> String {
        guard mayHoldTag(s) else { return s }
        let bytes = Array(s.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        var noMoreClosings = false  // once a search for `>` fails, later ones would too: stay linear
        while i < bytes.count {
            // Up to the next `<` that may start a tag, the text goes out as it is.
            let run = i
            i = noMoreClosings ? bytes.count : bytes[i...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
            out.append(contentsOf: bytes[run..<i])
            guard i < bytes.count else { break }
            let b = bytes[i]
            guard i + 1 < bytes.count, startsTag(bytes[i + 1]) else {
                out.append(b); i += 1; continue
            }
            if hasPrefix(bytes, at: i, "<!--") {
                guard let end = find(bytes, "-->", from: i + 4) else { break }
                i = end + 3
                continue
            }
            guard let close = bytes[(i + 1)...].firstIndex(of: UInt8(ascii: ">")) else {
                noMoreClosings = true
                out.append(b); i += 1; continue
            }
            let name = tagName(bytes, from: i + 1, to: close)
            i = close + 1
            if droppedWithContent.contains(name), bytes[i - 2] != UInt8(ascii: "/") {
                if let end = find(bytes, "</" + name, from: i, caseInsensitive: true),
                   let endClose = bytes[end...].firstIndex(of: UInt8(ascii: ">")) {
                    i = endClose + 1
                } else {
                    i = bytes.count
                }
            }
            if !inlineTags.contains(name) { out.append(UInt8(ascii: " ")) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `s.contains("<")` (a `<` Character), without walking Characters where the bytes tell: no
    /// `<` byte means none; one between two ASCII bytes is a Character of its own.
    private static func mayHoldTag(_ s: String) -> Bool {
        var utf8 = s
        let answer = utf8.withUTF8 { bytes -> Bool? in
            guard let i = bytes.firstIndex(of: UInt8(ascii: "<")) else { return false }
            guard i == 0 || bytes[i - 1] < 0x80, i + 1 == bytes.count || bytes[i + 1] < 0x80 else { return nil }
            return true
        }
        return answer ?? s.contains("<")
    }

    private static func startsTag(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "/") || b == UInt8(ascii: "!") || b == UInt8(ascii: "?")
    }

    /// The lowercased element name of the tag between `from` (after `<`) and `to` (the `>`).
    private static func tagName(_ bytes: [UInt8], from: Int, to: Int) -> String {
        var j = from
        if j < to, bytes[j] == UInt8(ascii: "/") { j += 1 }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { name in
            var count = 0
            while j < to, count < 16 {
                let c = bytes[j] | 0x20
                guard (c >= 0x61 && c <= 0x7A) || (bytes[j] >= 0x30 && bytes[j] <= 0x39) else { break }
                name[count] = c
                count += 1
                j += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: name[..<count]), as: UTF8.self)
        }
    }

    private static func hasPrefix(_ bytes: [UInt8], at i: Int, _ prefix: String) -> Bool {
        let p = Array(prefix.utf8)
        return i + p.count <= bytes.count && Array(bytes[i..<(i + p.count)]) == p
    }

    private static func find(_ bytes: [UInt8], _ needle: String, from start: Int, caseInsensitive: Bool = false) -> Int? {
        let n = Array(needle.utf8)
        guard let first = n.first, start <= bytes.count - n.count else { return nil }
        var i = start
        while i <= bytes.count - n.count {
            if fold(bytes[i], caseInsensitive) == first {
                var k = 1
                while k < n.count, fold(bytes[i + k], caseInsensitive) == n[k] { k += 1 }
                if k == n.count { return i }
            }
            i += 1
        }
        return nil
    }

    private static func fold(_ b: UInt8, _ caseInsensitive: Bool) -> UInt8 {
        caseInsensitive && b >= 0x41 && b <= 0x5A ? b | 0x20 : b
    }
}
