import FoundationEssentials

/// The Codable decoder for every state file and JSON line the core reads, without
/// FoundationEssentials' JSONDecoder. It reads what `StateJSONEncoder` (and the JSONEncoder of
/// older builds) wrote, and treats values as JSONDecoder did: dates from RFC 3339 strings
/// (`ISO8601.parse`), URLs from strings, integers from any number that is exactly one (`3.0`,
/// `1e2`), floats from any number they can hold. The parser is strict and bounded (`JSONParser`);
/// every failure is a `DecodingError` whose coding path says where.
public struct StateJSONDecoder: Sendable {
    public init() {}

    /// The decoder matching `StateJSONEncoder.headlines()` (what `StateJSONDecoder.headlines()` was).
    public static func headlines() -> StateJSONDecoder { StateJSONDecoder() }

    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(type, from: [UInt8](data))
    }

    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The given data was not valid JSON: \(error)."))
        }
        return try JSONUnwrap.value(T.self, from: root, at: [])
    }
}

/// Turns one `JSONNode` into the Swift value asked for, or the DecodingError JSONDecoder would throw.
enum JSONUnwrap {
    static func value<T: Decodable>(_ type: T.Type, from node: JSONNode, at path: [CodingKey]) throws -> T {
        if T.self == Date.self {
            let text = try string(from: node, as: Date.self, at: path)
            guard let date = ISO8601.parse(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "not an RFC 3339 date: \(text)"))
            }
            return date as! T
        }
        if T.self == URL.self {
            let text = try string(from: node, as: URL.self, at: path)
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Invalid URL string."))
            }
            return url as! T
        }
        return try T(from: StateDecoding(node: node, codingPath: path))
    }

    static func notNull(_ node: JSONNode, _ type: Any.Type, at path: [CodingKey]) throws {
        if node == .null {
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        }
    }

    static func mismatch(_ type: Any.Type, _ node: JSONNode, at path: [CodingKey]) -> DecodingError {
        .typeMismatch(type, .init(codingPath: path, debugDescription: "Expected to decode \(type) but found \(node.kind) instead."))
    }

    static func string(from node: JSONNode, as type: Any.Type = String.self, at path: [CodingKey]) throws -> String {
        try notNull(node, type, at: path)
        guard case .string(let s) = node else { throw mismatch(type, node, at: path) }
        return s
    }

    static func bool(from node: JSONNode, at path: [CodingKey]) throws -> Bool {
        try notNull(node, Bool.self, at: path)
        guard case .bool(let b) = node else { throw mismatch(Bool.self, node, at: path) }
        return b
    }

    /// The integer a number is exactly: its digits when they fit, else through a Double when that
    /// is exact (below 2^53), as JSONDecoder's slow path does; `1.5`, `1e30` into an Int are errors.
    static func integer<T: FixedWidthInteger>(_ type: T.Type, from node: JSONNode, at path: [CodingKey]) throws -> T {
        try notNull(node, type, at: path)
        guard case .number(let text) = node else { throw mismatch(type, node, at: path) }
        if let value = T(text) { return value }
        if let double = Double(text), double.magnitude < 9_007_199_254_740_992, let value = T(exactly: double) {
            return value
        }
        if let value = exactInteger(T.self, text) { return value }
        throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Number \(text) is not representable in Swift."))
    }

    /// `1e16`, `12345678901234567890.0`: the integer a number's decimal digits spell exactly, where
    /// JSONDecoder fell back on Decimal. Nil when it has a fraction or does not fit.
    private static func exactInteger<T: FixedWidthInteger>(_ type: T.Type, _ text: String) -> T? {
        var digits: [UInt8] = [], exponent = 0, negative = false
        var afterPoint = false, inExponent = false, exponentNegative = false, exponentValue = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-") where !inExponent: negative = true
            case UInt8(ascii: "-"): exponentNegative = true
            case UInt8(ascii: "+"): continue
            case UInt8(ascii: "."): afterPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            case _ where inExponent:
                // Beyond this no integer type can hold a non-zero value; zero is caught earlier.
                guard exponentValue < 100_000 else { return nil }
                exponentValue = exponentValue * 10 + Int(byte - UInt8(ascii: "0"))
            default:
                if digits.isEmpty && byte == UInt8(ascii: "0") { if afterPoint { exponent -= 1 }; continue }
                digits.append(byte - UInt8(ascii: "0"))
                if afterPoint { exponent -= 1 }
            }
        }
        exponent += exponentNegative ? -exponentValue : exponentValue
        while let last = digits.last, last == 0 { digits.removeLast(); exponent += 1 }
        if digits.isEmpty { return 0 }
        guard exponent >= 0, digits.count + exponent <= 40 else { return nil }
        var value: T = 0
        for digit in digits + [UInt8](repeating: 0, count: exponent) {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times10.subtractingReportingOverflow(T(digit)) : times10.addingReportingOverflow(T(digit))
            guard !o1, !o2 else { return nil }
            value = next
        }
        return value
    }

    /// A Double or Float from any number it can hold; one that overflows to infinity, or a
    /// non-zero one that underflows to zero, is an error (JSONDecoder's rule).
    static func float<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type, from node: JSONNode, at path: [CodingKey]) throws -> T {
        try notNull(node, type, at: path)
        guard case .number(let text) = node else { throw mismatch(type, node, at: path) }
        if let value = T(text), value.isFinite, value != 0 || isTrueZero(text) { return value }
        throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Number \(text) is not representable in Swift."))
    }

    /// Whether the number's digits before any exponent are all zeros.
    private static func isTrueZero(_ text: String) -> Bool {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "e"), UInt8(ascii: "E"): return true
            case UInt8(ascii: "1")...UInt8(ascii: "9"): return false
            default: continue
            }
        }
        return true
    }
}

/// The `Decoder` handed to `init(from:)`, over one node.
struct StateDecoding: Decoder {
    let node: JSONNode
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try JSONUnwrap.notNull(node, [String: Any].self, at: codingPath)
        guard case .object(let members) = node else { throw JSONUnwrap.mismatch([String: Any].self, node, at: codingPath) }
        return KeyedDecodingContainer(StateKeyedDecoding<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        try JSONUnwrap.notNull(node, [Any].self, at: codingPath)
        guard case .array(let items) = node else { throw JSONUnwrap.mismatch([Any].self, node, at: codingPath) }
        return StateUnkeyedDecoding(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer {
        StateSingleValueDecoding(node: node, codingPath: codingPath)
    }
}
