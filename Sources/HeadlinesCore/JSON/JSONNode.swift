/// A parsed or about-to-be-written JSON value: the tree `StateJSONDecoder` reads from and
/// `StateJSONEncoder` writes out. Numbers keep their text, so each type can read them exactly
/// (an Int64 beyond 2^53 never passes through a Double). Objects keep the first of duplicate keys,
/// as JSONDecoder does.
enum JSONNode: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONNode])
    case object([String: JSONNode])

    /// What the value is, for error messages ("Expected String but found number").
    var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "bool"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "dictionary"
        }
    }
}

/// Writes a `JSONNode` byte for byte as FoundationEssentials' JSONEncoder does with
/// `[.sortedKeys, .withoutEscapingSlashes]` (plus `.prettyPrinted` when asked): keys sorted by
/// their UTF-8 bytes, `"` `\` and C0 controls escaped (`\b \f \n \r \t`, else `\u00xx`), nothing
/// else; pretty output indents by two spaces, writes `"key" : value`, and an empty array or object
/// as an opening and closing bracket with an empty line between them, as JSONEncoder does.
struct JSONWriter {
    let pretty: Bool
    private(set) var bytes: [UInt8] = []
    private var indent = 0

    init(pretty: Bool) { self.pretty = pretty }

    mutating func write(_ node: JSONNode) {
        switch node {
        case .null: append("null")
        case .bool(let b): append(b ? "true" : "false")
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .string(let s): writeString(s)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            open()
            for (i, item) in items.enumerated() {
                if i > 0 { separate() }
                if pretty { writeIndent() }
                write(item)
            }
            close()
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            open()
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (i, member) in sorted.enumerated() {
                if i > 0 { separate() }
                if pretty { writeIndent() }
                writeString(member.key)
                append(pretty ? " : " : ":")
                write(member.value)
            }
            close()
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func open() {
        guard pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        indent += 1
    }

    private mutating func close() {
        guard pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        indent -= 1
        writeIndent()
    }

    private mutating func separate() {
        bytes.append(UInt8(ascii: ","))
        if pretty { bytes.append(UInt8(ascii: "\n")) }
    }

    private mutating func writeIndent() {
        for _ in 0..<indent { append("  ") }
    }

    private mutating func append(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    private mutating func writeString(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x00...0x1F:
                append("\\u00")
                bytes.append(UInt8(ascii: "0") + byte >> 4) // 0 or 1: C0 controls are below 0x20
                let low = byte & 0xF
                bytes.append(low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10)
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
