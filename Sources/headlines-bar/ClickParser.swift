/// Click events on a persist block's stdin (i3blocks 1.5): `{"button":1,...}` per line with
/// format=json, or the button number alone. Keeps the partial line between reads, at most 4 KiB
/// (a click line is tiny; anything longer is noise and is dropped).
struct ClickParser {
    private var pending: [UInt8] = []
    static let maxPending = 4096

    /// The buttons of the lines `bytes` completes, in order.
    mutating func append(_ bytes: ArraySlice<UInt8>) -> [Int] {
        var buttons: [Int] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if let b = Self.button(in: pending) { buttons.append(b) }
                pending.removeAll(keepingCapacity: true)
            } else if pending.count < Self.maxPending {
                pending.append(byte)
            }
        }
        return buttons
    }

    /// The integer after `"button"` and a colon, or the line's only number.
    static func button(in line: [UInt8]) -> Int? {
        let key = Array("\"button\"".utf8)
        var i = 0
        if let at = firstIndex(of: key, in: line) {
            i = at + key.count
            while i < line.count, line[i] == UInt8(ascii: " ") || line[i] == UInt8(ascii: "\t") { i += 1 }
            guard i < line.count, line[i] == UInt8(ascii: ":") else { return nil }
            i += 1
        }
        while i < line.count, line[i] == UInt8(ascii: " ") || line[i] == UInt8(ascii: "\t") { i += 1 }
        var value = 0
        var digits = 0
        while i < line.count, line[i] >= 0x30, line[i] <= 0x39, digits < 3 {
            value = value * 10 + Int(line[i] - 0x30)
            digits += 1
            i += 1
        }
        return digits > 0 ? value : nil
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
