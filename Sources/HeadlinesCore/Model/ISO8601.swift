import FoundationEssentials

/// RFC 3339 dates as the APIs send them, with or without fractional seconds, and back out with
/// milliseconds kept (JSONEncoder's `.iso8601` would drop them).
public enum ISO8601 {
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let plain = Date.ISO8601FormatStyle()

    public static func parse(_ text: String) -> Date? {
        let s = text.trimmed()
        if let d = try? withFraction.parse(s) { return d }
        if let d = try? plain.parse(s) { return d }
        return nil
    }

    /// `2026-11-29T21:58:10.512Z`. Rounds to the millisecond: the format style truncates, and a
    /// Date (a Double counted from 2001) holds `.512` as `.51199996...`, which would print `.511`.
    public static func format(_ date: Date) -> String {
        let ms = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        var text = plain.format(Date(timeIntervalSince1970: TimeInterval(seconds)))
        text.removeLast() // "Z"
        return text + "." + String(String(ms - seconds * 1000 + 1000).dropFirst()) + "Z"
    }
}

extension JSONEncoder {
    /// The encoder for every file and `--json` output: RFC 3339 with milliseconds, sorted keys.
    public static func headlines() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .custom { date, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(ISO8601.format(date))
        }
        return e
    }
}

extension JSONDecoder {
    /// The decoder matching `JSONEncoder.headlines()`.
    public static func headlines() -> JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .custom { decoder in
            let c = try decoder.singleValueContainer()
            let s = try c.decode(String.self)
            guard let date = ISO8601.parse(s) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "not an RFC 3339 date: \(s)")
            }
            return date
        }
        return d
    }
}
