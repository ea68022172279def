import Foundation

/// Entities, the two ways feeds get them wrong. A document that declares its own (`<!ENTITY`, the
/// billion-laughs attack) is refused outright. HTML entities a feed uses without declaring them
/// (`&eacute;`, `&nbsp;`: fatal to an XML parser) become character references, and a bare `&`
/// becomes `&amp;`, so one sloppy title does not lose the whole feed.
enum FeedEntityGuard {
    static let refusal = FeedError("the feed declares its own entities (<!ENTITY>), which is refused")

    /// Throws `refusal` when a DOCTYPE declares entities.
    static func check(_ text: String) throws(FeedError) {
        guard let doctype = text.range(of: "<!DOCTYPE") else { return }
        if text[doctype.upperBound...].contains("<!ENTITY") { throw refusal }
    }

    private static let predefined: Set<String> = ["amp", "lt", "gt", "quot", "apos"]

    /// `text` with undeclared entity references repaired; CDATA sections and comments untouched.
    static func repair(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 64)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "<"), let skip = skipVerbatim(bytes, at: i) {
                out.append(contentsOf: bytes[i..<skip]); i = skip; continue
            }
            guard b == UInt8(ascii: "&") else { out.append(b); i += 1; continue }
            let (replacement, length) = reference(bytes, at: i)
            out.append(contentsOf: replacement)
            i += length
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` without processing instructions other than the XML declaration (`<?xml-stylesheet?>`
    /// and the like carry nothing a headline needs, and FoundationXML on Linux crashes on one with
    /// no data: strlen(NULL) in its callback, found by the fuzzer). CDATA and comments untouched.
    static func stripProcessingInstructions(_ text: String) -> String {
        guard text.contains("<?") else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "<"), let skip = skipVerbatim(bytes, at: i) {
                out.append(contentsOf: bytes[i..<skip]); i = skip; continue
            }
            if starts(bytes, at: i, "<?") && !isXMLDeclaration(bytes, at: i) {
                var j = i + 2
                while j + 1 < bytes.count && !(bytes[j] == UInt8(ascii: "?") && bytes[j + 1] == UInt8(ascii: ">")) { j += 1 }
                i = min(bytes.count, j + 2)
                continue
            }
            out.append(bytes[i]); i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isXMLDeclaration(_ bytes: [UInt8], at i: Int) -> Bool {
        guard starts(bytes, at: i, "<?xml"), i + 5 < bytes.count else { return false }
        let next = bytes[i + 5]
        return next == UInt8(ascii: " ") || next == UInt8(ascii: "\t") || next == UInt8(ascii: "\n")
            || next == UInt8(ascii: "\r") || next == UInt8(ascii: "?")
    }

    /// The end of a CDATA section or comment starting at `i`, whose `&` are literal.
    private static func skipVerbatim(_ bytes: [UInt8], at i: Int) -> Int? {
        for (open, close) in [("<![CDATA[", "]]>"), ("<!--", "-->")] where starts(bytes, at: i, open) {
            var j = i + open.utf8.count
            let c = Array(close.utf8)
            while j + c.count <= bytes.count {
                if bytes[j] == c[0], starts(bytes, at: j, close) { return j + c.count }
                j += 1
            }
            return bytes.count
        }
        return nil
    }

    /// What to write for the `&` at `i`, and how many input bytes that consumes.
    private static func reference(_ bytes: [UInt8], at i: Int) -> ([UInt8], Int) {
        var j = i + 1
        while j < bytes.count, j - i <= 33, isNameByte(bytes[j]) || (j == i + 1 && bytes[j] == UInt8(ascii: "#")) { j += 1 }
        guard j < bytes.count, bytes[j] == UInt8(ascii: ";"), j > i + 1 else { return (Array("&amp;".utf8), 1) }
        let name = String(decoding: bytes[(i + 1)..<j], as: UTF8.self)
        let whole = Array(bytes[i...j])
        if name.hasPrefix("#") || predefined.contains(name) { return (whole, whole.count) }
        let decoded = TextCleaning.decodeEntities("&\(name);")
        guard decoded != "&\(name);" else { return (Array("&amp;".utf8), 1) }
        let references = decoded.unicodeScalars.map { "&#\($0.value);" }.joined()
        return (Array(references.utf8), whole.count)
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "x")
    }

    private static func starts(_ bytes: [UInt8], at i: Int, _ prefix: String) -> Bool {
        let p = Array(prefix.utf8)
        return i + p.count <= bytes.count && bytes[i..<(i + p.count)].elementsEqual(p)
    }
}
