import FoundationEssentials
import HeadlinesCore

/// Any JSON document, decoded with JSONDecoder (no JSONSerialization, no NSNumber): what the
/// `json` provider walks with its dotted paths. Integers stay exact; other numbers are Doubles.
public enum JSONValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int64.self) { self = .integer(i) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case let .bool(b): try c.encode(b)
        case let .integer(i): try c.encode(i)
        case let .number(d): try c.encode(d)
        case let .string(s): try c.encode(s)
        case let .array(a): try c.encode(a)
        case let .object(o): try c.encode(o)
        }
    }

    /// The value at a dotted path ("data.items", "attributes.title", "list.0.name"); "" is self.
    public func value(at path: String) -> JSONValue? {
        var current = self
        for key in path.split(separator: ".") {
            switch current {
            case let .object(dict):
                guard let next = dict[String(key)] else { return nil }
                current = next
            case let .array(array):
                guard let i = Int(key), array.indices.contains(i) else { return nil }
                current = array[i]
            default:
                return nil
            }
        }
        return current
    }

    /// Strings as they are, numbers in their shortest form ("42", "1.5"); nil for anything else.
    public var text: String? {
        switch self {
        case let .string(s): return s
        case let .integer(i): return String(i)
        case let .number(d): return d == d.rounded() && abs(d) < 9.0e15 ? String(Int64(d)) : String(d)
        default: return nil
        }
    }
}
