/// The bars' JSON, written by hand: i3bar's blocks, waybar's line, the widget document and the
/// error lines. `headlines-bar` has no Foundation, and the host renders these lines at every
/// publish, so they are written straight into bytes rather than through an encoder's value tree.
/// The one-line blocks of a fixed shape (i3bar's, the error lines) are templates around `quote`;
/// the waybar line and the widget document use `Writer`, keys in byte order as the encoder
/// that wrote them before sorted them, so their bytes did not change.
public enum JSONText {
    /// A JSON string literal (see `Writer.string`).
    public static func quote(_ s: String) -> String {
        var writer = Writer()
        writer.string(s)
        return writer.text
    }

    /// One JSON text being written. A member or an element after the first gets its comma from
    /// what was written last, so nesting needs no bookkeeping.
    public struct Writer {
        public private(set) var bytes: [UInt8] = []

        public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

        public var text: String { String(decoding: bytes, as: UTF8.self) }

        public mutating func beginObject() { separate(); bytes.append(0x7B) }
        public mutating func endObject() { bytes.append(0x7D) }
        public mutating func beginArray() { separate(); bytes.append(0x5B) }
        public mutating func endArray() { bytes.append(0x5D) }

        /// `"key":`, the next value's name in the object being written.
        public mutating func key(_ key: StaticString) {
            separate()
            bytes.append(0x22)
            key.withUTF8Buffer { bytes.append(contentsOf: $0) }
            bytes += [0x22, 0x3A]
        }

        /// A string literal: every control character, DEL, U+2028, U+2029 and both JSON specials
        /// escaped, so a value is always one line. A text with nothing to escape is copied whole.
        public mutating func string(_ s: String) {
            separate()
            bytes.append(0x22)
            var s = s
            s.withUTF8 { utf8 in
                var start = 0
                var i = 0
                while i < utf8.count {
                    guard let escape = Self.escape(utf8, at: i) else { i += 1; continue }
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i]))
                    bytes.append(contentsOf: escape.bytes)
                    i += escape.length
                    start = i
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
            }
            bytes.append(0x22)
        }

        public mutating func string(_ s: String?) {
            if let s { string(s) } else { null() }
        }

        public mutating func number(_ n: Int?) {
            guard let n else { return null() }
            separate()
            bytes.append(contentsOf: String(n).utf8)
        }

        public mutating func bool(_ b: Bool) {
            separate()
            bytes.append(contentsOf: b ? [0x74, 0x72, 0x75, 0x65] : [0x66, 0x61, 0x6C, 0x73, 0x65])
        }

        public mutating func null() {
            separate()
            bytes += [0x6E, 0x75, 0x6C, 0x6C]
        }

        /// A comma before a value or key that follows another one in its array or object (not
        /// after `[`, `{` or a key's colon).
        private mutating func separate() {
            guard let last = bytes.last, last != 0x5B, last != 0x7B, last != 0x3A else { return }
            bytes.append(0x2C)
        }

        private static let hexDigits = Array("0123456789abcdef".utf8)

        /// What the byte at `i` is written as, and how many bytes that replaces; nil when it
        /// stays as it is.
        private static func escape(_ utf8: UnsafeBufferPointer<UInt8>, at i: Int) -> (bytes: [UInt8], length: Int)? {
            let b = utf8[i]
            switch b {
            case 0x22: return ([0x5C, 0x22], 1)
            case 0x5C: return ([0x5C, 0x5C], 1)
            case 0x0A: return ([0x5C, 0x6E], 1)
            case 0x09: return ([0x5C, 0x74], 1)
            case 0x0D: return ([0x5C, 0x72], 1)
            case 0x00..<0x20, 0x7F:
                return ([0x5C, 0x75, 0x30, 0x30, hexDigits[Int(b >> 4)], hexDigits[Int(b & 0xF)]], 1)
            case 0xE2 where i + 2 < utf8.count && utf8[i + 1] == 0x80 && (utf8[i + 2] == 0xA8 || utf8[i + 2] == 0xA9):
                // U+2028 and U+2029 (E2 80 A8, E2 80 A9) end a line in JavaScript.
                return (Array((utf8[i + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8), 3)
            default: return nil
            }
        }
    }
}
