// Small text helpers that stand in for Foundation's ICU-backed ones (trimmingCharacters,
// replacingOccurrences, caseInsensitiveCompare, String(format:)), so the core needs only
// FoundationEssentials. Names differ from Foundation's on purpose: files that still import
// Foundation see both without ambiguity.

extension Character {
    /// Space, tab, newline, carriage return and every other Unicode white space or line break.
    @usableFromInline var isSpaceOrNewline: Bool { isWhitespace || isNewline }
}

extension StringProtocol {
    /// The text without leading and trailing white space and line breaks.
    public func trimmed() -> String {
        guard let first = firstIndex(where: { !$0.isSpaceOrNewline }) else { return "" }
        let last = lastIndex(where: { !$0.isSpaceOrNewline })!
        return String(self[first...last])
    }

    /// Every occurrence of `target` replaced by `replacement`, scanning left to right.
    public func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return String(self) }
        var out = ""
        var rest = self[...]
        while let found = rest.rangeOfText(target) {
            out += rest[..<found.lowerBound]
            out += replacement
            rest = rest[found.upperBound...]
        }
        return out + rest
    }

    /// The first range that equals `target`, Character by Character (as `firstRange(of:)`).
    /// Written with the stdlib alone: `firstRange(of:)` and `replacing(_:with:)` live in
    /// _StringProcessing, whose code the resident host would otherwise map (about 390 kB).
    public func rangeOfText(_ target: String) -> Range<Index>? {
        guard let first = target.first else { return nil }
        var start = startIndex
        while let at = self[start...].firstIndex(of: first) {
            var i = at, j = target.startIndex
            while j != target.endIndex, i != endIndex, self[i] == target[j] {
                formIndex(after: &i)
                target.formIndex(after: &j)
            }
            if j == target.endIndex { return at..<i }
            start = index(after: at)
        }
        return nil
    }

    /// True when both are equal ignoring case (Unicode lowercase mapping, no locale).
    public func equalsIgnoringCase<T: StringProtocol>(_ other: T) -> Bool {
        lowercased() == other.lowercased()
    }

    /// The text with every Unicode control character (C0, DEL, C1) removed.
    public func removingControlCharacters() -> String {
        String(String.UnicodeScalarView(unicodeScalars.filter { $0.properties.generalCategory != .control }))
    }
}

/// Fixed-point formatting without `String(format:)`.
public enum NumberText {
    /// "1 headline", "2 headlines", "0 headlines": a count with its noun, singular for one.
    public static func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)" + (n == 1 ? "" : "s") }

    /// `value` rounded half away from zero to `decimals` places: `fixed(2.345, 1)` is "2.3",
    /// `fixed(12.5, 0)` is "13", `fixed(-0.04, 1)` is "0.0".
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9.0e18 else { return String(value) }
        let units = Int64(scaled)
        let whole = units / Int64(scale)
        let sign = value < 0 && units != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(whole) }
        var fraction = String(units % Int64(scale))
        while fraction.count < decimals { fraction = "0" + fraction }
        return sign + String(whole) + "." + fraction
    }

    /// `value` as at least `width` digits, padded with leading zeros.
    public static func padded(_ value: Int, width: Int) -> String {
        let digits = String(abs(value))
        let pad = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + pad + digits
    }
}

/// Slash-separated path pieces without NSString.
public enum PathText {
    /// The folder part: "/a/b/c" gives "/a/b", "/c" gives "/", "c" gives "".
    public static func directory(of path: String) -> String {
        var p = Substring(path)
        while p.count > 1, p.hasSuffix("/") { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return "" }
        let dir = p[..<slash]
        return dir.isEmpty ? "/" : String(dir)
    }

    /// The last component: "/a/b/c" gives "c".
    public static func lastComponent(of path: String) -> String {
        var p = Substring(path)
        while p.count > 1, p.hasSuffix("/") { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/"), p.count > 1 else { return String(p) }
        return String(p[p.index(after: slash)...])
    }
}
