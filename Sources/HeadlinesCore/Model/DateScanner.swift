/// A cursor over the ASCII of one date, shared by the RFC 3339 and RFC 822 readers so both read
/// digits, letters and spaces the same way. Letters compare without case.
struct DateScanner {
    private let bytes: [UInt8]
    private(set) var position = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var atEnd: Bool { position == bytes.count }
    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }
    var peekIsDigit: Bool { peek.map(Self.isDigit) ?? false }

    mutating func expect(_ c: Unicode.Scalar) -> Bool {
        guard peek == UInt8(c.value) else { return false }
        position += 1
        return true
    }

    /// `word` (lowercase ASCII) in any case.
    mutating func expectWord(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard bytes.count - position >= w.count else { return false }
        for k in 0..<w.count where bytes[position + k] | 0x20 != w[k] { return false }
        position += w.count
        return true
    }

    /// 1 for `+`, -1 for `-`, else nil.
    mutating func sign() -> Int? {
        if expect("+") { return 1 }
        if expect("-") { return -1 }
        return nil
    }

    /// One or more ASCII digits, at most `max`; how many were read is `position` moved.
    mutating func digits(max: Int) -> Int? {
        var value = 0, count = 0
        while count < max, let b = peek, Self.isDigit(b) {
            value = value * 10 + Int(b - UInt8(ascii: "0"))
            count += 1
            position += 1
        }
        return count == 0 ? nil : value
    }

    /// A run of ASCII letters, lowercased, or nil when none is next.
    mutating func letters() -> String? {
        let start = position
        while let b = peek, (b | 0x20) >= UInt8(ascii: "a"), (b | 0x20) <= UInt8(ascii: "z") { position += 1 }
        guard position > start else { return nil }
        return String(decoding: bytes[start..<position].map { $0 | 0x20 }, as: UTF8.self)
    }

    /// Skips spaces and tabs; true when there was at least one.
    @discardableResult
    mutating func skipSpaces() -> Bool {
        let start = position
        while peek == UInt8(ascii: " ") || peek == UInt8(ascii: "\t") { position += 1 }
        return position > start
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
