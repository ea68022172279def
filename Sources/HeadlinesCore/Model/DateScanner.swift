/// A cursor over the ASCII of one date, shared by the RFC 3339 and RFC 822 readers and the repairs
/// `FeedDates` makes before them, so all read digits, letters and spaces the same way. Letters
/// compare without case.
package struct DateScanner {
    private let bytes: [UInt8]
    private var end: Int
    private(set) var position = 0

    /// Over `text`, with `trimming` less the white space (Unicode's) around it.
    package init(_ text: String, trimming: Bool = false) {
        // ASCII, nearly every date, is trimmed in place; other text as Characters, for Unicode's
        // white space (a no-break space). Either way only ASCII is left to read as a date.
        let plain = !trimming || text.utf8.allSatisfy { $0 < 0x80 }
        bytes = Array(plain ? text.utf8 : text.trimmed().utf8)
        end = bytes.count
        guard trimming && plain else { return }
        let space = { (b: UInt8) in b == 0x20 || (0x09...0x0D).contains(b) }
        while position < end, space(bytes[position]) { position += 1 }
        while end > position, space(bytes[end - 1]) { end -= 1 }
    }

    package var atEnd: Bool { position == end }
    var peek: UInt8? { position < end ? bytes[position] : nil }
    var peekIsDigit: Bool { peek.map(Self.isDigit) ?? false }
    /// What is left, as text.
    package var rest: String { String(decoding: bytes[position..<end], as: UTF8.self) }

    package mutating func expect(_ c: Unicode.Scalar) -> Bool {
        guard peek == UInt8(c.value) else { return false }
        position += 1
        return true
    }

    /// `word` (lowercase ASCII) in any case.
    mutating func expectWord(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard end - position >= w.count else { return false }
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

    /// The whole run of ASCII digits next, as text, when its length is in `counts`; else nil and
    /// nothing read.
    package mutating func digitText(_ counts: ClosedRange<Int>) -> String? {
        var next = position
        while next < end, Self.isDigit(bytes[next]) { next += 1 }
        guard counts.contains(next - position) else { return nil }
        defer { position = next }
        return String(decoding: bytes[position..<next], as: UTF8.self)
    }

    /// A run of ASCII letters, lowercased, or nil when none is next. A name fits a small string:
    /// no allocation.
    mutating func letters() -> String? {
        let start = position
        while let b = peek, (b | 0x20) >= UInt8(ascii: "a"), (b | 0x20) <= UInt8(ascii: "z") { position += 1 }
        guard position > start else { return nil }
        return String(unsafeUninitializedCapacity: position - start) { out in
            for k in start..<position { out[k - start] = bytes[k] | 0x20 }
            return position - start
        }
    }

    /// Skips spaces and tabs; true when there was at least one.
    @discardableResult
    package mutating func skipSpaces() -> Bool {
        let start = position
        while peek == UInt8(ascii: " ") || peek == UInt8(ascii: "\t") { position += 1 }
        return position > start
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
