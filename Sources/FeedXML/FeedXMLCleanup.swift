internal import CLibXML2

/// What real sites publish that an XML parser must not see as is, repaired on the UTF-8 bytes
/// before libxml2 parses them (line numbers are kept: no newline is added or removed):
/// - the XML declaration is dropped (the bytes are UTF-8 by now, whatever it said), and so are
///   the BOMs and Unicode spaces before it or before the root, which a WordPress plugin or theme
///   file prints first; whitespace and comments there stay, which XML allows;
/// - C0 control characters other than tab, CR and LF, and U+FFFE/U+FFFF, are removed: XML forbids
///   them and libxml2 would stop there;
/// - every entity reference becomes a character reference: HTML entities a feed uses without
///   declaring them (`&nbsp;`, `&eacute;`: the whole HTML 4 table, libxml2's own), and the five
///   predefined ones too, because libxml2 2.9 in recovery mode drops named references that follow
///   any earlier error, where character references survive. A `&` that starts no known reference
///   becomes `&#38;`, and a `<` that cannot start markup ("1 < 2") becomes `&#60;`. CDATA sections
///   and comments are left alone.
enum FeedXMLCleanup {
    static func clean(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 256)
        var i = 0
        if ASCII.starts(bytes, at: 0, with: "\u{FEFF}") { i = 3 }
        let declaration = declarationStart(bytes)
        if let start = documentStart(bytes) {
            // Before the document, BOMs and Unicode spaces go: XML allows only ASCII whitespace
            // there, and libxml2 gives up on anything else.
            while i < start {
                let blank = blankLength(bytes, at: i)
                if blank > 0 {
                    if blank == 1 { out.append(bytes[i]) }
                    i += blank
                    continue
                }
                let end = verbatimEnd(bytes, at: i) ?? i + 1
                appendAllowed(bytes[i..<end], to: &out)
                i = end
            }
        }
        while i < bytes.count {
            // Most bytes need no decision: they go out as a run.
            let run = i
            while i < bytes.count, !needsDecision(bytes[i]) { i += 1 }
            if run < i { out.append(contentsOf: bytes[run..<i]) }
            guard i < bytes.count else { break }
            let b = bytes[i]
            if b == UInt8(ascii: "<") {
                if i == declaration, let end = ASCII.find("?>", in: bytes, from: i) {
                    out.append(contentsOf: bytes[i..<(end + 2)].filter { $0 == 0x0A })
                    i = end + 2
                    continue
                }
                if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "!"), let skip = verbatimEnd(bytes, at: i) {
                    appendAllowed(bytes[i..<skip], to: &out)
                    i = skip
                    continue
                }
                if i + 1 == bytes.count || startsNoMarkup(bytes[i + 1]) {
                    out.append(contentsOf: "&#60;".utf8)
                    i += 1
                    continue
                }
            }
            if b == UInt8(ascii: "&") {
                i = reference(bytes, at: i, into: &out)
                continue
            }
            if b == 0xEF, i + 2 < bytes.count, bytes[i + 1] == 0xBF, bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF {
                i += 3  // U+FFFE, U+FFFF
                continue
            }
            if isAllowed(b) { out.append(b) }
            i += 1
        }
        return out
    }

    /// The bytes `clean` looks at: `<`, `&`, the lead byte of U+FFFE/U+FFFF, controls but tab, LF, CR.
    private static func needsDecision(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "<") || b == UInt8(ascii: "&") || b == 0xEF || !isAllowed(b)
    }

    /// `bytes` less the controls XML forbids, in runs.
    private static func appendAllowed(_ bytes: ArraySlice<UInt8>, to out: inout [UInt8]) {
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let run = i
            while i < bytes.endIndex, isAllowed(bytes[i]) { i += 1 }
            out.append(contentsOf: bytes[run..<i])
            i += 1
        }
    }

    /// A `<` followed by one of these ("1 < 2", "a <= b") starts no markup: it is text.
    private static func startsNoMarkup(_ b: UInt8) -> Bool {
        ASCII.isSpace(b) || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "=") || b == UInt8(ascii: "<")
    }

    private static func isAllowed(_ b: UInt8) -> Bool { b >= 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// Where `<?xml` starts once blanks and comments are skipped; nil when there is none.
    static func declarationStart(_ bytes: [UInt8]) -> Int? {
        guard let i = documentStart(bytes), ASCII.starts(bytes, at: i, with: "<?xml"), i + 5 < bytes.count,
              ASCII.isSpace(bytes[i + 5]) || bytes[i + 5] == UInt8(ascii: "?") else { return nil }
        return i
    }

    /// The first `<` that starts no comment, once blanks and comments are skipped (in the first
    /// 64 KiB); nil when something else comes first.
    static func documentStart(_ bytes: [UInt8]) -> Int? {
        var i = 0
        while i < min(bytes.count, 65536) {
            let blank = blankLength(bytes, at: i)
            if blank > 0 { i += blank; continue }
            if ASCII.starts(bytes, at: i, with: "<!--") {
                guard let end = ASCII.find("-->", in: bytes, from: i + 4) else { return nil }
                i = end + 3
                continue
            }
            return bytes[i] == UInt8(ascii: "<") ? i : nil
        }
        return nil
    }

    /// The bytes of the blank at `i` in UTF-8, 0 for none: ASCII whitespace, U+FEFF (a BOM, which
    /// a file printed after others leaves mid-stream), the no-break, typographic, zero-width and
    /// ideographic spaces (U+00A0, U+2000...U+200B, U+202F, U+205F, U+3000) and U+2028/U+2029.
    static func blankLength(_ bytes: [UInt8], at i: Int) -> Int {
        let b = bytes[i]
        if ASCII.isSpace(b) { return 1 }
        guard i + 1 < bytes.count else { return 0 }
        if b == 0xC2 { return bytes[i + 1] == 0xA0 ? 2 : 0 }
        guard i + 2 < bytes.count else { return 0 }
        switch (b, bytes[i + 1], bytes[i + 2]) {
        case (0xEF, 0xBB, 0xBF), (0xE2, 0x80, 0x80...0x8B), (0xE2, 0x80, 0xA8), (0xE2, 0x80, 0xA9), (0xE2, 0x80, 0xAF),
             (0xE2, 0x81, 0x9F), (0xE3, 0x80, 0x80): return 3
        default: return 0
        }
    }

    /// The end of the CDATA section or comment starting at `i`, whose `&` are literal.
    private static func verbatimEnd(_ bytes: [UInt8], at i: Int) -> Int? {
        for (open, close) in [("<![CDATA[", "]]>"), ("<!--", "-->")] where ASCII.starts(bytes, at: i, with: open) {
            guard let end = ASCII.find(close, in: bytes, from: i + open.utf8.count) else { return bytes.count }
            return end + close.utf8.count
        }
        return nil
    }

    /// Writes what stands for the `&` at `i` and returns where to go on.
    private static func reference(_ bytes: [UInt8], at i: Int, into out: inout [UInt8]) -> Int {
        var j = i + 1
        if j < bytes.count, bytes[j] == UInt8(ascii: "#") { j += 1 }
        let nameStart = j
        while j < bytes.count, j - i <= 34, ASCII.isLetterOrDigit(bytes[j]) { j += 1 }
        guard j < bytes.count, bytes[j] == UInt8(ascii: ";"), j > nameStart else {
            out.append(contentsOf: "&#38;".utf8)
            return i + 1
        }
        if nameStart == i + 2 {
            // A character reference: kept when it names a character XML allows.
            if let value = characterReference(bytes[nameStart..<j]), isXMLChar(value) {
                out.append(contentsOf: bytes[i...j])
            }
            return j + 1
        }
        guard let value = predefinedEntity(bytes[nameStart..<j]) ?? htmlEntity(bytes[nameStart..<j]) else {
            out.append(contentsOf: "&#38;".utf8)
            return i + 1
        }
        out.append(contentsOf: "&#".utf8)
        appendDecimal(value, to: &out)
        out.append(UInt8(ascii: ";"))
        return j + 1
    }

    private static func predefinedEntity(_ name: ArraySlice<UInt8>) -> UInt32? {
        if name.elementsEqual("amp".utf8) { return 38 }
        if name.elementsEqual("lt".utf8) { return 60 }
        if name.elementsEqual("gt".utf8) { return 62 }
        if name.elementsEqual("quot".utf8) { return 34 }
        if name.elementsEqual("apos".utf8) { return 39 }
        return nil
    }

    /// libxml2's HTML 4 table; `name` is at most 34 letters and digits.
    private static func htmlEntity(_ name: ArraySlice<UInt8>) -> UInt32? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: name.count + 1) { buffer in
            _ = buffer.initialize(from: name)
            buffer[name.count] = 0
            return htmlEntityLookup(buffer.baseAddress).map { $0.pointee.value }
        }
    }

    private static func appendDecimal(_ value: UInt32, to out: inout [UInt8]) {
        let start = out.count
        var v = value
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(v % 10))
            v /= 10
        } while v > 0
        out[start...].reverse()
    }

    /// `UInt32(text, radix: 16)` after an `x` or `X`, else `UInt32(text, radix: 10)`, for the
    /// letters and digits of a reference.
    private static func characterReference(_ digits: ArraySlice<UInt8>) -> UInt32? {
        var rest = digits
        var radix: UInt32 = 10
        if let first = rest.first, first == UInt8(ascii: "x") || first == UInt8(ascii: "X") {
            radix = 16
            rest = rest.dropFirst()
        }
        guard !rest.isEmpty else { return nil }
        var value: UInt32 = 0
        for b in rest {
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt32(b - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt32(b - UInt8(ascii: "A")) + 10
            default: return nil
            }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: radix)
            let (sum, carry) = shifted.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return value
    }

    private static func isXMLChar(_ v: UInt32) -> Bool {
        v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v)
            || (0x10000...0x10FFFF).contains(v)
    }
}
