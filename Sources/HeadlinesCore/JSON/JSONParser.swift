/// A strict RFC 8259 parser into `JSONNode`, bounded for files anyone could have written: nesting
/// deeper than `maxDepth` is refused (no stack overflow), the input must be valid UTF-8, string
/// escapes are checked (a `\u` high surrogate needs its low half; a lone half is an error, as in
/// JSONDecoder), and anything after the one top-level value but whitespace is an error.
struct JSONParser {
    static let maxDepth = 64

    /// Why the bytes are not JSON, with the byte offset where that became clear.
    struct Failure: Error, CustomStringConvertible {
        var reason: String
        var offset: Int
        var description: String { "\(reason) at byte \(offset)" }
    }

    private let bytes: [UInt8]
    private var i = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONNode {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.i == bytes.count else { throw parser.fail("unexpected text after the JSON value") }
        return value
    }

    private func fail(_ reason: String) -> Failure { Failure(reason: reason, offset: i) }

    private var atEnd: Bool { i >= bytes.count }

    private mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONNode {
        guard !atEnd else { throw fail("unexpected end of input") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let n = word.utf8CodeUnitCount
        guard bytes.count - i >= n else { throw fail("unexpected end of input") }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] {
            throw fail("unexpected character")
        }
        i += n
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONNode {
        guard depth <= Self.maxDepth else { throw fail("nested deeper than \(Self.maxDepth) levels") }
        i += 1
        var members: [String: JSONNode] = [:]
        skipWhitespace()
        if !atEnd, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard !atEnd else { throw fail("unexpected end of input") }
            guard bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key") }
            let key = try string()
            skipWhitespace()
            guard !atEnd else { throw fail("unexpected end of input") }
            guard bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            i += 1
            skipWhitespace()
            let member = try value(depth: depth)
            if members[key] == nil { members[key] = member }
            skipWhitespace()
            guard !atEnd else { throw fail("unexpected end of input") }
            switch bytes[i] {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "}"): i += 1; return .object(members)
            default: throw fail("expected ',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONNode {
        guard depth <= Self.maxDepth else { throw fail("nested deeper than \(Self.maxDepth) levels") }
        i += 1
        var items: [JSONNode] = []
        skipWhitespace()
        if !atEnd, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth))
            skipWhitespace()
            guard !atEnd else { throw fail("unexpected end of input") }
            switch bytes[i] {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"): i += 1; return .array(items)
            default: throw fail("expected ',' or ']'")
            }
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, kept as text.
    private mutating func number() throws(Failure) -> String {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard !atEnd, isDigit(bytes[i]) else { throw fail("a number needs digits") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if !atEnd, isDigit(bytes[i]) { throw fail("a number cannot start with 0") }
        } else {
            while !atEnd, isDigit(bytes[i]) { i += 1 }
        }
        if !atEnd, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard !atEnd, isDigit(bytes[i]) else { throw fail("a fraction needs digits") }
            while !atEnd, isDigit(bytes[i]) { i += 1 }
        }
        if !atEnd, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if !atEnd, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard !atEnd, isDigit(bytes[i]) else { throw fail("an exponent needs digits") }
            while !atEnd, isDigit(bytes[i]) { i += 1 }
        }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// A string from its opening quote; validates UTF-8 as it goes.
    private mutating func string() throws(Failure) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard !atEnd else { throw fail("unterminated string") }
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""):
                i += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                i += 1
                try escape(into: &out)
            case 0x00...0x1F:
                throw fail("unescaped control character in a string")
            case 0x00...0x7F:
                out.append(b)
                i += 1
            default:
                let n = try utf8SequenceLength()
                out.append(contentsOf: bytes[i..<i + n])
                i += n
            }
        }
    }

    /// The length of the valid UTF-8 sequence at `i` (RFC 3629: no overlongs, no surrogates,
    /// nothing above U+10FFFF).
    private func utf8SequenceLength() throws(Failure) -> Int {
        let b = bytes[i]
        let n: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch b {
        case 0xC2...0xDF: n = 2
        case 0xE0: n = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: n = 3
        case 0xED: n = 3; high = 0x9F
        case 0xF0: n = 4; low = 0x90
        case 0xF1...0xF3: n = 4
        case 0xF4: n = 4; high = 0x8F
        default: throw fail("invalid UTF-8")
        }
        guard bytes.count - i >= n else { throw fail("invalid UTF-8") }
        guard bytes[i + 1] >= low, bytes[i + 1] <= high else { throw fail("invalid UTF-8") }
        for k in 2..<n where !(0x80...0xBF).contains(bytes[i + k]) {
            throw fail("invalid UTF-8")
        }
        return n
    }

    private mutating func escape(into out: inout [UInt8]) throws(Failure) {
        guard !atEnd else { throw fail("unterminated string") }
        let c = bytes[i]
        i += 1
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(c)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard bytes.count - i >= 2, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                    throw fail("a high surrogate without its low half")
                }
                i += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw fail("a high surrogate without its low half") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw fail("a low surrogate without its high half")
            }
            UTF8.encode(Unicode.Scalar(scalar)!) { out.append($0) }
        default:
            throw fail("invalid escape")
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - i >= 4 else { throw fail("unterminated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw fail("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            i += 1
        }
        return value
    }
}
