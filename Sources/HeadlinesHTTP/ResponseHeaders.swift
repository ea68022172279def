import FoundationEssentials

/// The header lines of one exchange as libcurl hands them over, one line per call: every
/// interim (1xx) response and the final one, then any chunked trailers. Only the final
/// response's fields are kept, names lower-cased and names and values stripped of control
/// characters, because providers put header values into messages that reach terminals and logs.
struct ResponseHeaders {
    /// Header bytes allowed per exchange, interim responses included. Real APIs send a few KiB;
    /// libcurl's own limit is for one line, so without this a server could send header lines
    /// until the timeout.
    static let maxBytes = 256 * 1024

    enum Verdict { case accepted, tooLarge, conflictingLength }

    private(set) var fields: [String: String] = [:]
    /// True once a final (non-1xx) response's head has ended.
    private(set) var complete = false
    private var interim = false
    private var bytes = 0
    /// True before a status line and after the blank line that ends a head: only there does a
    /// line starting "HTTP/" begin a new response (inside a head it is a header named so).
    private var atStart = true
    /// The Content-Length values of the current response, to refuse two that disagree (libcurl
    /// 7.88 silently takes the last, so the body's end would be the server's choice of two).
    private var lengths: Set<Substring> = []

    mutating func add(_ raw: UnsafeRawBufferPointer) -> Verdict {
        bytes += raw.count
        guard bytes <= Self.maxBytes else { return .tooLarge }
        let line = String(decoding: raw, as: UTF8.self)
        let content = Self.trimmed(Substring(line))
        if content.isEmpty {
            if !atStart, !interim { complete = true }
            atStart = true
            return .accepted
        }
        if atStart, content.hasPrefix("HTTP/") {
            fields = [:]
            lengths = []
            atStart = false
            interim = content.split(separator: " ").dropFirst().first?.hasPrefix("1") ?? false
            return .accepted
        }
        atStart = false
        guard let colon = content.firstIndex(of: ":") else { return .accepted }
        let name = Self.printable(Self.trimmed(content[..<colon])).lowercased()
        let value = Self.printable(Self.trimmed(content[content.index(after: colon)...]))
        guard !name.isEmpty else { return .accepted }
        if name == "content-length" {
            for length in value.split(separator: ",") { lengths.insert(Self.trimmed(length)) }
            if lengths.count > 1 { return .conflictingLength }
        }
        // Appended in place: building a new joined string per line would be quadratic in the
        // number of repeated lines.
        if fields[name] == nil { fields[name] = value } else { fields[name]!.append(", " + value) }
        return .accepted
    }

    private static func trimmed(_ s: Substring) -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        var s = s
        while let c = s.first, blank(c) { s = s.dropFirst() }
        while let c = s.last, blank(c) { s = s.dropLast() }
        return s
    }

    /// Without C0 and C1 controls and DEL: U+009B is a one-character escape sequence introducer
    /// on many terminals, just as ESC is.
    static func printable(_ s: Substring) -> String {
        var out = String.UnicodeScalarView()
        for scalar in s.unicodeScalars where scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value) {
            out.append(scalar)
        }
        return String(out)
    }
}
