import FoundationEssentials

/// A JSON object's members by key.
struct StateKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONNode]
    let codingPath: [CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func node(_ key: Key) throws -> JSONNode {
        guard let node = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath,
                debugDescription: "No value associated with key \"\(key.stringValue)\"."))
        }
        return node
    }

    func decodeNil(forKey key: Key) throws -> Bool { try node(key) == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try JSONUnwrap.bool(from: node(key), at: codingPath + [key]) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try JSONUnwrap.string(from: node(key), at: codingPath + [key]) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try JSONUnwrap.float(type, from: node(key), at: codingPath + [key]) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try JSONUnwrap.float(type, from: node(key), at: codingPath + [key]) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try JSONUnwrap.integer(type, from: node(key), at: codingPath + [key]) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try JSONUnwrap.integer(type, from: node(key), at: codingPath + [key]) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try JSONUnwrap.integer(type, from: node(key), at: codingPath + [key]) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try JSONUnwrap.integer(type, from: node(key), at: codingPath + [key]) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try JSONUnwrap.integer(type, from: node(key), at: codingPath + [key]) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try JSONUnwrap.integer(type, from: node(key), at: codingPath + [key]) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try JSONUnwrap.integer(type, from: node(key), at: codingPath + [key]) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try JSONUnwrap.integer(type, from: node(key), at: codingPath + [key]) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try JSONUnwrap.integer(type, from: node(key), at: codingPath + [key]) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try JSONUnwrap.integer(type, from: node(key), at: codingPath + [key]) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try JSONUnwrap.value(type, from: node(key), at: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try StateDecoding(node: node(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        try StateDecoding(node: node(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    /// A missing `super` reads as null, as in JSONDecoder.
    func superDecoder() throws -> Decoder {
        StateDecoding(node: members["super"] ?? .null, codingPath: codingPath + [JSONCodingKey.super])
    }

    func superDecoder(forKey key: Key) throws -> Decoder {
        StateDecoding(node: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

/// A JSON array read front to back.
struct StateUnkeyedDecoding: UnkeyedDecodingContainer {
    let items: [JSONNode]
    let codingPath: [CodingKey]
    private(set) var currentIndex = 0

    init(items: [JSONNode], codingPath: [CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private var path: [CodingKey] { codingPath + [JSONCodingKey(index: currentIndex)] }

    private mutating func read<T>(_ type: T.Type, _ unwrap: (JSONNode, [CodingKey]) throws -> T) throws -> T {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
        }
        let value = try unwrap(items[currentIndex], path)
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any?.self, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
        }
        if items[currentIndex] == .null { currentIndex += 1; return true }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try read(type) { try JSONUnwrap.bool(from: $0, at: $1) } }
    mutating func decode(_ type: String.Type) throws -> String { try read(type) { try JSONUnwrap.string(from: $0, at: $1) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try read(type) { try JSONUnwrap.float(type, from: $0, at: $1) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try read(type) { try JSONUnwrap.float(type, from: $0, at: $1) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try read(type) { try JSONUnwrap.integer(type, from: $0, at: $1) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try read(type) { try JSONUnwrap.integer(type, from: $0, at: $1) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try read(type) { try JSONUnwrap.integer(type, from: $0, at: $1) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try read(type) { try JSONUnwrap.integer(type, from: $0, at: $1) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try read(type) { try JSONUnwrap.integer(type, from: $0, at: $1) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try read(type) { try JSONUnwrap.integer(type, from: $0, at: $1) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try read(type) { try JSONUnwrap.integer(type, from: $0, at: $1) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try read(type) { try JSONUnwrap.integer(type, from: $0, at: $1) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try read(type) { try JSONUnwrap.integer(type, from: $0, at: $1) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try read(type) { try JSONUnwrap.integer(type, from: $0, at: $1) } }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try read(type) { try JSONUnwrap.value(type, from: $0, at: $1) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try read(KeyedDecodingContainer<NestedKey>.self) { try StateDecoding(node: $0, codingPath: $1).container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
        try read(UnkeyedDecodingContainer.self) { try StateDecoding(node: $0, codingPath: $1).unkeyedContainer() }
    }

    mutating func superDecoder() throws -> Decoder {
        try read(Decoder.self) { StateDecoding(node: $0, codingPath: $1) }
    }
}

/// One value.
struct StateSingleValueDecoding: SingleValueDecodingContainer {
    let node: JSONNode
    let codingPath: [CodingKey]

    func decodeNil() -> Bool { node == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try JSONUnwrap.bool(from: node, at: codingPath) }
    func decode(_ type: String.Type) throws -> String { try JSONUnwrap.string(from: node, at: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try JSONUnwrap.float(type, from: node, at: codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try JSONUnwrap.float(type, from: node, at: codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try JSONUnwrap.integer(type, from: node, at: codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try JSONUnwrap.integer(type, from: node, at: codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try JSONUnwrap.integer(type, from: node, at: codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try JSONUnwrap.integer(type, from: node, at: codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try JSONUnwrap.integer(type, from: node, at: codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try JSONUnwrap.integer(type, from: node, at: codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try JSONUnwrap.integer(type, from: node, at: codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try JSONUnwrap.integer(type, from: node, at: codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try JSONUnwrap.integer(type, from: node, at: codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try JSONUnwrap.integer(type, from: node, at: codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONUnwrap.value(type, from: node, at: codingPath)
    }
}
