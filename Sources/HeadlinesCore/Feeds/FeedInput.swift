import Foundation

/// A feed's bytes as text. `XMLParser` on Linux does not honour every declared encoding, so the
/// bytes are decoded here (BOM first, then the XML prolog's `encoding`) and handed on as UTF-8
/// with the prolog rewritten to say so.
enum FeedInput {
    /// The document as a string, BOM removed.
    static func decode(_ data: Data) -> String {
        let bytes = [UInt8](data.prefix(4))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return utf8(data.dropFirst(3)) }
        if bytes.starts(with: [0xFF, 0xFE]) { return String(data: data.dropFirst(2), encoding: .utf16LittleEndian) ?? "" }
        if bytes.starts(with: [0xFE, 0xFF]) { return String(data: data.dropFirst(2), encoding: .utf16BigEndian) ?? "" }
        // UTF-16 without a BOM still shows itself: "<" next to a zero byte.
        if bytes.starts(with: [0x3C, 0x00]) { return String(data: data, encoding: .utf16LittleEndian) ?? "" }
        if bytes.starts(with: [0x00, 0x3C]) { return String(data: data, encoding: .utf16BigEndian) ?? "" }
        guard let label = declaredEncoding(data), let encoding = encoding(forLabel: label) else { return utf8(data) }
        if encoding == .isoLatin1 {
            // As browsers do: ISO-8859-1 labels mean Windows-1252, whose 0x80-0x9F are € “ ” ‘ ’ …
            // rather than invisible controls. Five bytes are undefined there, so fall back.
            return String(data: data, encoding: .windowsCP1252) ?? String(data: data, encoding: .isoLatin1) ?? utf8(data)
        }
        return String(data: data, encoding: encoding) ?? utf8(data)
    }

    /// The `encoding` of `<?xml ... ?>`, lowercased, read from the ASCII-compatible start of `data`.
    static func declaredEncoding(_ data: Data) -> String? {
        let head = String(decoding: data.prefix(256), as: UTF8.self)
        guard head.hasPrefix("<?xml"), let end = head.range(of: "?>") else { return nil }
        let prolog = head[..<end.lowerBound]
        return attributeValue("encoding", in: prolog)?.lowercased()
    }

    /// Valid UTF-8 as is; stray bytes become U+FFFD instead of failing the whole feed.
    private static func utf8(_ data: Data) -> String {
        String(data: data, encoding: .utf8) ?? String(decoding: data, as: UTF8.self)
    }

    private static func encoding(forLabel label: String) -> String.Encoding? {
        switch label {
        case "utf-8", "utf8", "us-ascii", "ascii": return .utf8
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1": return .isoLatin1
        case "windows-1252", "cp1252", "x-cp1252": return .windowsCP1252
        case "utf-16", "utf16": return .utf16
        case "utf-16le": return .utf16LittleEndian
        case "utf-16be": return .utf16BigEndian
        case "iso-8859-2", "latin2": return .isoLatin2
        case "windows-1250": return .windowsCP1250
        case "windows-1251": return .windowsCP1251
        case "windows-1253": return .windowsCP1253
        case "windows-1254": return .windowsCP1254
        case "shift_jis", "shift-jis", "sjis": return .shiftJIS
        case "euc-jp": return .japaneseEUC
        case "macintosh", "mac-roman": return .macOSRoman
        default: return nil
        }
    }

    /// `text` with its XML declaration's `encoding` replaced by UTF-8, as UTF-8 bytes.
    static func utf8XML(_ text: String) -> Data {
        guard text.hasPrefix("<?xml"), let end = text.range(of: "?>"),
              text.distance(from: text.startIndex, to: end.lowerBound) < 512 else { return Data(text.utf8) }
        let prolog = text[..<end.lowerBound]
        guard let key = prolog.range(of: "encoding"),
              let open = prolog[key.upperBound...].firstIndex(where: { $0 == "\"" || $0 == "'" }),
              let close = prolog[prolog.index(after: open)...].firstIndex(of: prolog[open]) else {
            return Data(text.utf8)
        }
        var rewritten = text
        rewritten.replaceSubrange(open...close, with: "\"UTF-8\"")
        return Data(rewritten.utf8)
    }

    private static func attributeValue(_ name: String, in prolog: Substring) -> String? {
        guard let key = prolog.range(of: name),
              let open = prolog[key.upperBound...].firstIndex(where: { $0 == "\"" || $0 == "'" }) else { return nil }
        let rest = prolog[prolog.index(after: open)...]
        guard let close = rest.firstIndex(of: prolog[open]) else { return nil }
        return String(rest[..<close]).trimmingCharacters(in: .whitespaces)
    }
}
