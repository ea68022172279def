import FoundationEssentials

/// JSON from a server, made decodable before it reaches `JSONDecoder`, which refuses a whole
/// document for one bad string: bytes that are not UTF-8 become U+FFFD, and so does a `\u`
/// escape of half a surrogate pair (`\ud83d` alone). One bad title then costs at most that
/// title's character, never the page.
public enum ServerJSON {
    public static func decodable(_ body: Data) -> Data {
        var bytes = [UInt8](body)
        if String(validating: bytes, as: UTF8.self) == nil { bytes = Array(String(decoding: bytes, as: UTF8.self).utf8) }
        return Data(replacingLoneSurrogates(bytes))
    }

    /// Every `\uD800`–`\uDFFF` escape inside a string that is not one half of a high-low pair,
    /// replaced by `\uFFFD`. Everything else is copied as it is.
    static func replacingLoneSurrogates(_ bytes: [UInt8]) -> [UInt8] {
        guard hasSurrogateEscape(bytes) else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        var inString = false
        while i < bytes.count {
            let b = bytes[i]
            if !inString {
                if b == UInt8(ascii: "\"") { inString = true }
                out.append(b)
                i += 1
                continue
            }
            if b == UInt8(ascii: "\"") { inString = false; out.append(b); i += 1; continue }
            guard b == UInt8(ascii: "\\"), i + 1 < bytes.count else { out.append(b); i += 1; continue }
            guard bytes[i + 1] == UInt8(ascii: "u"), let unit = hex4(bytes, at: i + 2) else {
                out.append(contentsOf: bytes[i...i + 1])
                i += 2
                continue
            }
            if (0xD800...0xDBFF).contains(unit), i + 12 <= bytes.count, bytes[i + 6] == UInt8(ascii: "\\"),
               bytes[i + 7] == UInt8(ascii: "u"), let low = hex4(bytes, at: i + 8), (0xDC00...0xDFFF).contains(low) {
                out.append(contentsOf: bytes[i..<i + 12])
                i += 12
            } else if (0xD800...0xDFFF).contains(unit) {
                out.append(contentsOf: Array(#"\ufffd"#.utf8))
                i += 6
            } else {
                out.append(contentsOf: bytes[i..<i + 6])
                i += 6
            }
        }
        return out
    }

    private static func hasSurrogateEscape(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while i + 2 < bytes.count {
            if bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u"), bytes[i + 2] | 0x20 == UInt8(ascii: "d") { return true }
            i += 1
        }
        return false
    }

    private static func hex4(_ bytes: [UInt8], at start: Int) -> Int? {
        guard start + 4 <= bytes.count else { return nil }
        var value = 0
        for b in bytes[start..<start + 4] {
            guard let digit = Int(String(UnicodeScalar(b)), radix: 16) else { return nil }
            value = value * 16 + digit
        }
        return value
    }
}

/// One element of a server's list: decoded when it can be, nil when it cannot, so one element of
/// the wrong shape drops itself and not the list.
struct Lenient<Element: Decodable>: Decodable {
    let value: Element?
    init(from decoder: Decoder) throws { value = try? Element(from: decoder) }
}
