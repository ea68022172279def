import FoundationEssentials

/// Turns what an API put in a title into plain text: HTML entities decoded (users complain about a
/// raw `&amp;`), runs of whitespace and newlines folded to one space. Markup characters are kept as
/// literal text; each renderer escapes them for its own markup.
public enum TextCleaning {
    /// The most characters a title keeps, and a summary. Text is cut once, here, where it
    /// arrives: every later step (each bar line, keyword matching, notifications, the files) then
    /// works on a few hundred characters, whatever a server sent.
    public static let titleLimit = 400
    public static let summaryLimit = 1000

    /// Plain text of a title, cut at `titleLimit` (the last character an ellipsis when cut).
    public static func plainTitle(_ raw: String) -> String { plain(raw, limit: titleLimit) }

    /// Plain text of a summary (a feed's description), cut at `summaryLimit`.
    public static func plainSummary(_ raw: String) -> String { plain(raw, limit: summaryLimit) }

    private static func plain(_ raw: String, limit: Int) -> String {
        // A first cut on the raw text bounds the work below; entities and whitespace shrink it,
        // so eight times the limit is always enough.
        let bounded = raw.utf8.count > limit * 8 ? String(raw.prefix(limit * 8)) : raw
        return BarText.truncate(collapseWhitespace(removingInvisibleFormatting(decodeEntities(bounded))), to: limit)
    }


    /// Zero-width spaces, stray byte-order marks and word joiners: invisible in a title, but they
    /// break matching (mute words, deduplication). The zero-width (non-)joiners stay (emoji and
    /// Persian need them), and so do bidi marks, which right-to-left titles use; each output
    /// (terminal, notification, bar) neutralises bidi overrides itself.
    static func removingInvisibleFormatting(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: isInvisibleFormatting) else { return s }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: s.unicodeScalars.filter { !isInvisibleFormatting($0) })
        return String(out)
    }

    private static func isInvisibleFormatting(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x200B, 0x2060...0x2064, 0xFEFF: return true
        default: return false
        }
    }

    /// Runs of whitespace Characters (newlines included) folded to one space, none at either end.
    /// An ASCII text goes byte by byte (every ASCII byte is a Character of its own, and CR LF is
    /// whitespace either way); any other walks its Characters once, without splitting.
    public static func collapseWhitespace(_ s: String) -> String {
        if isCollapsed(s) { return s }
        var text = s
        if let ascii = text.withUTF8({ collapseASCII($0) }) { return ascii }
        var out = ""
        out.reserveCapacity(s.utf8.count)
        var spacePending = false
        for c in s {
            // CR LF's asciiValue is LF's.
            let separator = c.asciiValue.map(isASCIIWhitespace) ?? (c.isWhitespace || c.isNewline)
            if separator {
                spacePending = !out.isEmpty
            } else {
                if spacePending { out.append(" "); spacePending = false }
                out.append(c)
            }
        }
        return out
    }

    /// True when `collapseWhitespace` would return `s` unchanged, found without building
    /// anything: every scalar a Character of its own (`SingleScalarCharacters`, so nothing joins
    /// a space to its neighbour), every space a single U+0020 between two other characters, and
    /// no other whitespace. Any other text is left to the full walk.
    static func isCollapsed(_ s: String) -> Bool {
        var afterSpace = true
        for u in s.unicodeScalars {
            let v = u.value
            if v == 0x20 {
                if afterSpace { return false }
                afterSpace = true
                continue
            }
            guard SingleScalarCharacters.contains(v), !SingleScalarCharacters.isWhitespace(v) else { return false }
            afterSpace = false
        }
        return !afterSpace || s.isEmpty
    }

    /// Nil when `bytes` hold a byte outside ASCII.
    private static func collapseASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var spacePending = false
        for b in bytes {
            guard b < 0x80 else { return nil }
            if isASCIIWhitespace(b) {
                spacePending = !out.isEmpty
            } else {
                if spacePending { out.append(0x20); spacePending = false }
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Tab, LF, VT, FF, CR and space: the ASCII Characters that are whitespace or a newline.
    private static func isASCIIWhitespace(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }

    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
        "ndash": "–", "mdash": "—", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "hellip": "…", "copy": "©", "reg": "®", "trade": "™", "euro": "€", "pound": "£",
        "laquo": "«", "raquo": "»", "middot": "·", "bull": "•", "deg": "°", "eacute": "é",
        "egrave": "è", "aacute": "á", "agrave": "à", "oacute": "ó", "uacute": "ú", "iacute": "í",
        "ntilde": "ñ", "uuml": "ü", "ouml": "ö", "auml": "ä", "ccedil": "ç", "szlig": "ß",
    ]

    /// Decodes `&name;`, `&#NN;` and `&#xNN;`. Unknown or malformed entities are left as they are.
    public static func decodeEntities(_ s: String) -> String {
        // On bytes: an `&` that a combining mark joins is no `&` Character, and the walk below
        // leaves it as it is.
        guard s.utf8.contains(UInt8(ascii: "&")) else { return s }
        var out = ""
        out.reserveCapacity(s.count)
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            guard c == "&", let semi = s[i...].prefix(12).firstIndex(of: ";") else {
                out.append(c); i = s.index(after: i); continue
            }
            let name = s[s.index(after: i)..<semi]
            if let decoded = decode(entity: name) {
                out.append(decoded)
                i = s.index(after: semi)
            } else {
                out.append(c); i = s.index(after: i)
            }
        }
        return out
    }

    private static func decode(entity name: Substring) -> String? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value: UInt32?
            if digits.hasPrefix("x") || digits.hasPrefix("X") { value = UInt32(digits.dropFirst(), radix: 16) }
            else { value = UInt32(digits, radix: 10) }
            guard let v = value, v != 0, let scalar = Unicode.Scalar(v) else { return nil }
            return String(Character(scalar))
        }
        return named[String(name)]
    }
}

extension TerminalText {
    /// `s` with every C0 and C1 control but newline and tab replaced by U+FFFD: what the CLI and
    /// the host log write, so a server's message can carry no escape sequence (clear screen, an
    /// OSC 52 clipboard write, an OSC 8 link) to a terminal. Bidi marks stay (a right-to-left
    /// title in `list --json` needs them); what shows a title to a person uses `safe`.
    public static func withoutControls(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: isControl) else { return s }
        return String(String.UnicodeScalarView(s.unicodeScalars.map { isControl($0) ? "\u{FFFD}" : $0 }))
    }

    private static func isControl(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x0A, 0x09: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        default: return false
        }
    }
}
