/// Byte helpers for the passes that run before libxml2 sees a document.
enum ASCII {
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    static func isLetterOrDigit(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
    }

    static func lowercased(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }

    static func starts(_ bytes: [UInt8], at i: Int, with prefix: String, caseInsensitive: Bool = false) -> Bool {
        var j = i
        for p in prefix.utf8 {
            guard j < bytes.count else { return false }
            let b = caseInsensitive ? lowercased(bytes[j]) : bytes[j]
            guard b == p else { return false }
            j += 1
        }
        return true
    }

    /// The index of the first `needle` at or after `start` (and before `limit`), or nil.
    static func find(_ needle: String, in bytes: [UInt8], from start: Int, limit: Int = .max) -> Int? {
        let n = needle.utf8
        let end = min(bytes.count, limit) - n.count
        guard let first = n.first, start <= end else { return nil }
        var i = start
        while i <= end {
            if bytes[i] == first, starts(bytes, at: i, with: needle) { return i }
            i += 1
        }
        return nil
    }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace (Unicode's, as `Character.isWhitespace`).
    public var trimmingWhitespace: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let last = lastIndex(where: { !$0.isWhitespace })!
        return String(self[first...last])
    }
}
