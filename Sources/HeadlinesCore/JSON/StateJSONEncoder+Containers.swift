import FoundationEssentials

/// A JSON object being filled; encoding a key twice keeps the last value, as JSONEncoder does.
struct StateKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let builder: JSONBuilder
    let codingPath: [CodingKey]

    private func set(_ node: JSONNode, _ key: Key) { builder.members[key.stringValue] = JSONBuilder(node) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try JSONBuilder.number(value, at: codingPath + [key]), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try JSONBuilder.number(value, at: codingPath + [key]), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(JSONBuilder.integer(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(JSONBuilder.integer(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(JSONBuilder.integer(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(JSONBuilder.integer(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(JSONBuilder.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(JSONBuilder.integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(JSONBuilder.integer(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(JSONBuilder.integer(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(JSONBuilder.integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(JSONBuilder.integer(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        builder.members[key.stringValue] = try JSONBuilder.encode(value, at: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = JSONBuilder()
        child.kind = .object
        builder.members[key.stringValue] = child
        return KeyedEncodingContainer(StateKeyedEncoding<NestedKey>(builder: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        let child = JSONBuilder()
        child.kind = .array
        builder.members[key.stringValue] = child
        return StateUnkeyedEncoding(builder: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> Encoder { superEncoder(named: JSONCodingKey.super) }
    mutating func superEncoder(forKey key: Key) -> Encoder { superEncoder(named: key) }

    private func superEncoder(named key: CodingKey) -> Encoder {
        let child = JSONBuilder()
        builder.members[key.stringValue] = child
        return StateEncoding(builder: child, codingPath: codingPath + [key])
    }
}

/// A JSON array being filled.
struct StateUnkeyedEncoding: UnkeyedEncodingContainer {
    let builder: JSONBuilder
    let codingPath: [CodingKey]
    var count: Int { builder.items.count }

    private var nextKey: CodingKey { JSONCodingKey(index: builder.items.count) }
    private func append(_ node: JSONNode) { builder.items.append(JSONBuilder(node)) }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try JSONBuilder.number(value, at: codingPath + [nextKey])) }
    mutating func encode(_ value: Float) throws { append(try JSONBuilder.number(value, at: codingPath + [nextKey])) }
    mutating func encode(_ value: Int) throws { append(JSONBuilder.integer(value)) }
    mutating func encode(_ value: Int8) throws { append(JSONBuilder.integer(value)) }
    mutating func encode(_ value: Int16) throws { append(JSONBuilder.integer(value)) }
    mutating func encode(_ value: Int32) throws { append(JSONBuilder.integer(value)) }
    mutating func encode(_ value: Int64) throws { append(JSONBuilder.integer(value)) }
    mutating func encode(_ value: UInt) throws { append(JSONBuilder.integer(value)) }
    mutating func encode(_ value: UInt8) throws { append(JSONBuilder.integer(value)) }
    mutating func encode(_ value: UInt16) throws { append(JSONBuilder.integer(value)) }
    mutating func encode(_ value: UInt32) throws { append(JSONBuilder.integer(value)) }
    mutating func encode(_ value: UInt64) throws { append(JSONBuilder.integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        builder.items.append(try JSONBuilder.encode(value, at: codingPath + [nextKey]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = codingPath + [nextKey]
        let child = JSONBuilder()
        child.kind = .object
        builder.items.append(child)
        return KeyedEncodingContainer(StateKeyedEncoding<NestedKey>(builder: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let path = codingPath + [nextKey]
        let child = JSONBuilder()
        child.kind = .array
        builder.items.append(child)
        return StateUnkeyedEncoding(builder: child, codingPath: path)
    }

    mutating func superEncoder() -> Encoder {
        let path = codingPath + [nextKey]
        let child = JSONBuilder()
        builder.items.append(child)
        return StateEncoding(builder: child, codingPath: path)
    }
}

/// One value: a leaf, or (for a generic value) whatever that value's own encoding builds.
struct StateSingleValueEncoding: SingleValueEncodingContainer {
    let builder: JSONBuilder
    let codingPath: [CodingKey]

    private func set(_ node: JSONNode) { builder.kind = .leaf; builder.leaf = node }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try JSONBuilder.number(value, at: codingPath)) }
    mutating func encode(_ value: Float) throws { set(try JSONBuilder.number(value, at: codingPath)) }
    mutating func encode(_ value: Int) throws { set(JSONBuilder.integer(value)) }
    mutating func encode(_ value: Int8) throws { set(JSONBuilder.integer(value)) }
    mutating func encode(_ value: Int16) throws { set(JSONBuilder.integer(value)) }
    mutating func encode(_ value: Int32) throws { set(JSONBuilder.integer(value)) }
    mutating func encode(_ value: Int64) throws { set(JSONBuilder.integer(value)) }
    mutating func encode(_ value: UInt) throws { set(JSONBuilder.integer(value)) }
    mutating func encode(_ value: UInt8) throws { set(JSONBuilder.integer(value)) }
    mutating func encode(_ value: UInt16) throws { set(JSONBuilder.integer(value)) }
    mutating func encode(_ value: UInt32) throws { set(JSONBuilder.integer(value)) }
    mutating func encode(_ value: UInt64) throws { set(JSONBuilder.integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let child = try JSONBuilder.encode(value, at: codingPath)
        builder.kind = .deferred
        builder.deferredTo = child
    }
}
