import BarFormats

/// Click events on stdin: i3bar/swaybar's `status_command` protocol (an endless JSON array, one
/// object per line) and i3blocks 1.5's persist blocks (`{"button":1,...}` per line with
/// format=json, or the button number alone). Keeps the partial line between reads, at most
/// 4 KiB (a click line is small; anything longer is noise and is dropped).
struct ClickParser {
    private var pending: [UInt8] = []
    static let maxPending = 4096

    struct Click: Equatable {
        var button: Int
        /// The block's `instance` when it is a headline key (what `headlines-bar i3bar` sets).
        var instance: String?
    }

    /// The clicks of the lines `bytes` completes, in order.
    mutating func append(_ bytes: ArraySlice<UInt8>) -> [Click] {
        var clicks: [Click] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if let click = Self.click(in: pending) { clicks.append(click) }
                pending.removeAll(keepingCapacity: true)
            } else if pending.count < Self.maxPending {
                pending.append(byte)
            }
        }
        return clicks
    }

    /// The button, from `"button"` or, when swaybar sends button 0, from the Linux input
    /// `"event"` code (BTN_LEFT 272, BTN_RIGHT 273, BTN_MIDDLE 274); and the instance.
    static func click(in line: [UInt8]) -> Click? {
        guard var button = number(after: "\"button\"", in: line) ?? (firstIndex(of: Array("\"".utf8), in: line) == nil ? number(in: line[...]) : nil)
        else { return nil }
        if button == 0 {
            switch number(after: "\"event\"", in: line) {
            case 272: button = 1
            case 273: button = 3
            case 274: button = 2
            default: return nil
            }
        }
        let instance = string(after: "\"instance\"", in: line).flatMap { HeadlineKey.isKey($0) ? $0 : nil }
        return Click(button: button, instance: instance)
    }

    /// The button alone, kept for the lines i3blocks writes.
    static func button(in line: [UInt8]) -> Int? { click(in: line)?.button }

    private static func valueStart(after key: String, in line: [UInt8]) -> Int? {
        guard let at = firstIndex(of: Array(key.utf8), in: line) else { return nil }
        var i = at + key.utf8.count
        while i < line.count, line[i] == UInt8(ascii: " ") || line[i] == UInt8(ascii: "\t") { i += 1 }
        guard i < line.count, line[i] == UInt8(ascii: ":") else { return nil }
        i += 1
        while i < line.count, line[i] == UInt8(ascii: " ") || line[i] == UInt8(ascii: "\t") { i += 1 }
        return i
    }

    private static func number(after key: String, in line: [UInt8]) -> Int? {
        guard let i = valueStart(after: key, in: line) else { return nil }
        return number(in: line[i...])
    }

    /// The digits at the start of `bytes` (after blanks), at most 5 of them.
    private static func number(in bytes: ArraySlice<UInt8>) -> Int? {
        var i = bytes.startIndex
        while i < bytes.endIndex, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") { i += 1 }
        var value = 0
        var digits = 0
        while i < bytes.endIndex, bytes[i] >= 0x30, bytes[i] <= 0x39, digits < 5 {
            value = value * 10 + Int(bytes[i] - 0x30)
            digits += 1
            i += 1
        }
        return digits > 0 ? value : nil
    }

    /// A JSON string value with no escapes in it, at most 64 bytes (a key is 16).
    private static func string(after key: String, in line: [UInt8]) -> String? {
        guard var i = valueStart(after: key, in: line), i < line.count, line[i] == UInt8(ascii: "\"") else { return nil }
        i += 1
        var out: [UInt8] = []
        while i < line.count, line[i] != UInt8(ascii: "\""), line[i] != UInt8(ascii: "\\"), out.count < 64 {
            out.append(line[i])
            i += 1
        }
        guard i < line.count, line[i] == UInt8(ascii: "\"") else { return nil }
        return String(decoding: out, as: UTF8.self)
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
