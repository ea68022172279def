import FoundationEssentials

/// The Codable encoder for every state file and JSON line the core writes, without
/// FoundationEssentials' JSONEncoder (whose conformance tables cost a resident process megabytes).
/// It writes exactly what `JSONEncoder` wrote with `[.sortedKeys, .withoutEscapingSlashes]` and
/// this project's date strategy: dates as RFC 3339 with milliseconds (`ISO8601.format`), URLs as
/// their `absoluteString`, doubles as their shortest `description` without a trailing `.0`, nil
/// optionals left out by synthesized code (an explicit `encodeNil` writes `null`). `Data` is not
/// special-cased (no state file holds one): it would come out as its own Codable form, an array of
/// bytes, where JSONEncoder wrote base64.
public struct StateJSONEncoder: Sendable {
    /// Two-space indents and `"key" : value`, byte for byte as JSONEncoder's `.prettyPrinted`.
    public var prettyPrinted: Bool

    public init(prettyPrinted: Bool = false) { self.prettyPrinted = prettyPrinted }

    /// The encoder for every file and `--json` output (what `StateJSONEncoder.headlines()` was).
    public static func headlines() -> StateJSONEncoder { StateJSONEncoder() }

    public func encode<T: Encodable>(_ value: T) throws -> Data {
        Data(try encodeBytes(value))
    }

    /// The JSON text as bytes, for callers that want no `Data`.
    public func encodeBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        let root = try JSONBuilder.encode(value, at: [])
        guard let node = root.node(topLevel: true) else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        var writer = JSONWriter(pretty: prettyPrinted)
        writer.write(node)
        return writer.bytes
    }
}

/// One value being encoded: a leaf, or an object or array whose members are still being filled by
/// containers (a class, because containers and nested encoders share it while `encode(to:)` runs).
final class JSONBuilder {
    enum Kind { case empty, leaf, object, array, deferred }
    var kind = Kind.empty
    var leaf = JSONNode.null
    var members: [String: JSONBuilder] = [:]
    var items: [JSONBuilder] = []
    /// For a single-value container handed a whole value: the builder that value filled.
    var deferredTo: JSONBuilder?

    init() {}
    init(_ leaf: JSONNode) { kind = .leaf; self.leaf = leaf }

    /// The finished tree; a value that encoded nothing is `{}` inside a container (as in
    /// JSONEncoder) and nil at the top.
    func node(topLevel: Bool = false) -> JSONNode? {
        switch kind {
        case .empty: return topLevel ? nil : .object([:])
        case .leaf: return leaf
        case .object: return .object(members.mapValues { $0.node() ?? .object([:]) })
        case .array: return .array(items.map { $0.node() ?? .object([:]) })
        case .deferred: return deferredTo?.node(topLevel: topLevel)
        }
    }

    func becomeObject() {
        if kind == .empty || kind == .leaf { kind = .object; members = [:] }
    }

    func becomeArray() {
        if kind == .empty || kind == .leaf { kind = .array; items = [] }
    }

    /// `value` encoded on its own, dates, URLs and numbers written as this project writes them.
    static func encode<T: Encodable>(_ value: T, at path: [CodingKey]) throws -> JSONBuilder {
        if let date = value as? Date { return JSONBuilder(.string(ISO8601.format(date))) }
        if let url = value as? URL { return JSONBuilder(.string(url.absoluteString)) }
        let builder = JSONBuilder()
        try value.encode(to: StateEncoding(builder: builder, codingPath: path))
        return builder
    }

    /// JSONEncoder's spelling: `description`, less a trailing `.0`; NaN and infinities refused.
    static func number<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F, at path: [CodingKey]) throws -> JSONNode {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }

    static func integer(_ value: some FixedWidthInteger) -> JSONNode { .number(String(value)) }
}

/// The `Encoder` handed to `encode(to:)`: every container it gives out writes into `builder`.
struct StateEncoding: Encoder {
    let builder: JSONBuilder
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        builder.becomeObject()
        return KeyedEncodingContainer(StateKeyedEncoding<Key>(builder: builder, codingPath: codingPath))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        builder.becomeArray()
        return StateUnkeyedEncoding(builder: builder, codingPath: codingPath)
    }

    func singleValueContainer() -> SingleValueEncodingContainer {
        StateSingleValueEncoding(builder: builder, codingPath: codingPath)
    }
}
