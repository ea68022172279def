#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A feed's bytes as UTF-8, the way feed readers and browsers decide the charset: a BOM first, then
/// the XML declaration's `encoding`, then the HTTP `Content-Type` charset. Where the label
/// contradicts the bytes (declared ISO-8859-1 or any other legacy charset but the bytes are valid
/// UTF-8 with non-ASCII in them; declared UTF-8 or undeclared but not valid UTF-8), the bytes win:
/// UTF-8 where they are UTF-8, Windows-1252 for each byte that is not. ISO-8859-1 and ASCII labels
/// mean Windows-1252, as in browsers. Every other label goes to iconv (what libxml2 itself uses):
/// gb2312, gbk, big5, koi8-r, shift_jis, euc-jp, windows-125x, iso-8859-x ... An unknown label is
/// treated as no label.
///
/// The conversion happens here rather than inside libxml2 (by naming the encoding to
/// xmlCtxtReadMemory) so that the repairs before parsing (`FeedXMLCleanup`: junk before `<?xml`,
/// control characters, undeclared HTML entities) work on one known encoding, and so that a byte
/// iconv rejects costs one U+FFFD instead of the rest of the feed (libxml2 stops at it).
enum FeedCharset {
    static func utf8(_ bytes: [UInt8], contentType: String?) -> [UInt8] {
        // Byte order marks.
        if ASCII.starts(bytes, at: 0, with: "\u{FEFF}") { return lenientUTF8(bytes[3...]) }
        if bytes.starts(with: [0xFF, 0xFE, 0, 0]) { return iconv(bytes[4...], from: "UTF-32LE") ?? [] }
        if bytes.starts(with: [0, 0, 0xFE, 0xFF]) { return iconv(bytes[4...], from: "UTF-32BE") ?? [] }
        if bytes.starts(with: [0xFF, 0xFE]) { return iconv(bytes[2...], from: "UTF-16LE") ?? [] }
        if bytes.starts(with: [0xFE, 0xFF]) { return iconv(bytes[2...], from: "UTF-16BE") ?? [] }
        // UTF-16 without a BOM still shows itself: an XML document starts with an ASCII character,
        // so one of its first two bytes is zero.
        if bytes.count >= 2 {
            if bytes[0] == 0 && bytes[1] != 0 { return iconv(bytes[...], from: "UTF-16BE") ?? [] }
            if bytes[0] != 0 && bytes[1] == 0 { return iconv(bytes[...], from: "UTF-16LE") ?? [] }
        }
        let label = (declaredEncoding(bytes) ?? contentTypeCharset(contentType)).map(normalized)
        return decode(bytes, label: label)
    }

    private static func decode(_ bytes: [UInt8], label: String?) -> [UInt8] {
        guard let label, !utf8Labels.contains(label), !label.hasPrefix("utf-16"), !label.hasPrefix("utf-32"),
              !label.hasPrefix("utf16"), !label.hasPrefix("ucs") else {
            // No label, UTF-8, or a UTF-16/32 label on bytes that are plainly 8-bit (no BOM, no zeros).
            return lenientUTF8(bytes[...])
        }
        if isUTF8WithNonASCII(bytes) { return bytes }
        if latin1Labels.contains(label) { return windows1252(bytes[...]) }
        return iconv(bytes[...], from: label) ?? lenientUTF8(bytes[...])
    }

    private static let utf8Labels: Set<String> = ["utf-8", "utf8", "unicode-1-1-utf-8", "x-unicode20utf8"]
    private static let latin1Labels: Set<String> = [
        "iso-8859-1", "iso8859-1", "iso_8859-1", "iso-ir-100", "latin1", "latin-1", "l1", "cp819", "ibm819",
        "us-ascii", "ascii", "ansi_x3.4-1968", "iso646-us", "windows-1252", "cp1252", "x-cp1252",
    ]

    private static func normalized(_ label: String) -> String {
        String(label.trimmingWhitespace.lowercased().filter { $0 != "\"" && $0 != "'" })
    }

    // MARK: Labels

    /// The `encoding` of `<?xml ... ?>`, read from the ASCII-compatible start of `bytes` (past any
    /// whitespace or comments, which WordPress and others put there).
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        guard let start = FeedXMLCleanup.declarationStart(bytes),
              let end = ASCII.find("?>", in: bytes, from: start, limit: start + 512),
              let key = ASCII.find("encoding", in: bytes, from: start, limit: end) else { return nil }
        var i = key + 8
        while i < end, ASCII.isSpace(bytes[i]) || bytes[i] == UInt8(ascii: "=") { i += 1 }
        guard i < end, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else { return nil }
        let quote = bytes[i]
        guard let close = bytes[(i + 1)..<end].firstIndex(of: quote) else { return nil }
        return String(decoding: bytes[(i + 1)..<close], as: UTF8.self)
    }

    /// `charset` of a Content-Type header value such as `application/rss+xml; charset="koi8-r"`.
    static func contentTypeCharset(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingWhitespace.lowercased() == "charset" else { continue }
            let value = normalized(String(pair[1]))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    // MARK: Decoders

    /// Valid UTF-8 sequences as they are; each byte that is not part of one, as Windows-1252.
    static func lenientUTF8(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let run = i
            i = wellFormedEnd(bytes, from: i)
            out.append(contentsOf: bytes[run..<i])
            guard i < bytes.endIndex else { break }
            append(scalar: windows1252Scalar(bytes[i]), to: &out)
            i += 1
        }
        return out
    }

    static func isUTF8WithNonASCII(_ bytes: [UInt8]) -> Bool {
        wellFormedEnd(bytes[...], from: 0) == bytes.count && asciiEnd(bytes[...], from: 0) < bytes.count
    }

    /// Where the well-formed UTF-8 that starts at `i` ends: the end, or the first byte that
    /// starts no well-formed sequence.
    private static func wellFormedEnd(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int {
        var i = start
        while i < bytes.endIndex {
            i = asciiEnd(bytes, from: i)
            guard i < bytes.endIndex else { break }
            let length = sequenceLength(bytes, at: i)
            guard length > 0 else { return i }
            i += length
        }
        return i
    }

    /// Where the run of ASCII that starts at `i` ends, eight bytes at a time.
    private static func asciiEnd(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int {
        bytes.withUnsafeBytes { raw in
            let base = bytes.startIndex
            var k = start - base
            while k + 8 <= raw.count, raw.loadUnaligned(fromByteOffset: k, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                k += 8
            }
            while k < raw.count, raw[k] < 0x80 { k += 1 }
            return base + k
        }
    }

    /// The length of the well-formed UTF-8 sequence at `i` (no overlongs, surrogates or values past
    /// U+10FFFF), or 0.
    private static func sequenceLength(_ bytes: ArraySlice<UInt8>, at i: Int) -> Int {
        let b = bytes[i]
        let (length, low, high): (Int, UInt8, UInt8)
        switch b {
        case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
        case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE, 0xEF: (length, low, high) = (3, 0x80, 0xBF)
        case 0xED: (length, low, high) = (3, 0x80, 0x9F)
        case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
        case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
        case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
        default: return 0
        }
        guard i + length <= bytes.endIndex, (low...high).contains(bytes[i + 1]) else { return 0 }
        for k in 2..<length where !(0x80...0xBF).contains(bytes[i + k]) { return 0 }
        return length
    }

    static func windows1252(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let run = i
            i = asciiEnd(bytes, from: i)
            out.append(contentsOf: bytes[run..<i])
            guard i < bytes.endIndex else { break }
            append(scalar: windows1252Scalar(bytes[i]), to: &out)
            i += 1
        }
        return out
    }

    /// 0x80-0x9F are € ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ; the five bytes the
    /// code page leaves undefined map to the C1 controls of the same value, as browsers do.
    private static func windows1252Scalar(_ b: UInt8) -> UInt32 {
        guard (0x80...0x9F).contains(b) else { return UInt32(b) }
        return high1252[Int(b) - 0x80]
    }

    private static let high1252: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    static func append(scalar: UInt32, to out: inout [UInt8]) {
        if let s = Unicode.Scalar(scalar) { UTF8.encode(s) { out.append($0) } }
    }

    /// `bytes` converted from `charset` with iconv; a sequence it cannot convert becomes U+FFFD and
    /// the conversion goes on. Nil when iconv does not know the charset.
    static func iconv(_ bytes: ArraySlice<UInt8>, from charset: String) -> [UInt8]? {
        let cd = iconv_open("UTF-8", charset)
        guard let cd, Int(bitPattern: cd) != -1 else { return nil }
        defer { iconv_close(cd) }
        var input = Array(bytes)
        var out = [UInt8](repeating: 0, count: input.count * 4 + 16)
        var written = 0
        input.withUnsafeMutableBufferPointer { inBuffer in
            var inPtr = UnsafeMutableRawPointer(inBuffer.baseAddress)?.assumingMemoryBound(to: CChar.self)
            var inLeft = inBuffer.count
            while inLeft > 0 {
                if out.count - written < 16 { out += [UInt8](repeating: 0, count: out.count) }
                let (result, outUsed): (Int, Int) = out.withUnsafeMutableBufferPointer { outBuffer in
                    var outPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuffer.baseAddress! + written)
                        .assumingMemoryBound(to: CChar.self)
                    var outLeft = outBuffer.count - written
                    let r = Glibc.iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft)
                    return (r, outBuffer.count - written - outLeft)
                }
                written += outUsed
                guard result == -1 else { break }
                switch errno {
                case E2BIG: continue
                case EILSEQ:
                    // One unconvertible byte: mark it and go on.
                    if out.count - written < 3 { out += [UInt8](repeating: 0, count: 16) }
                    out.replaceSubrange(written..<(written + 3), with: [0xEF, 0xBF, 0xBD]); written += 3
                    inPtr = inPtr.map { $0 + 1 }; inLeft -= 1
                default:
                    // EINVAL: a sequence cut off by the end of the body.
                    if out.count - written < 3 { out += [UInt8](repeating: 0, count: 16) }
                    out.replaceSubrange(written..<(written + 3), with: [0xEF, 0xBF, 0xBD]); written += 3
                    inLeft = 0
                }
            }
        }
        return Array(out[..<written])
    }
}
