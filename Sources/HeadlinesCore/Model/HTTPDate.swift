import FoundationEssentials

/// HTTP dates (RFC 9110 section 5.6.7) without DateFormatter: the preferred IMF-fixdate
/// `Sun, 06 Nov 1994 08:49:37 GMT`, and the obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`
/// and asctime `Sun Nov  6 08:49:37 1994` forms a recipient must still accept. Always UTC.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun",
                                 "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date, or nil when the text is none of the three forms.
    public static func parse(_ text: String) -> Date? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let day: Int?, month: Int?, year: Int?, time: String
        if words.count == 6, words[0].hasSuffix(","), words[5].equalsIgnoringCase("GMT") || words[5] == "UTC" {
            // IMF-fixdate: weekday, DD Mon YYYY HH:MM:SS GMT
            (day, month, year, time) = (Int(words[1]), monthNumber(words[2]), Int(words[3]), words[4])
        } else if words.count == 4, words[0].hasSuffix(","), words[3].equalsIgnoringCase("GMT") {
            // RFC 850: weekday, DD-Mon-YY HH:MM:SS GMT; two-digit years 70-99 are 19xx.
            let parts = words[1].split(separator: "-").map(String.init)
            guard parts.count == 3, let yy = Int(parts[2]) else { return nil }
            (day, month, year, time) = (Int(parts[0]), monthNumber(parts[1]),
                                        parts[2].count == 2 ? (yy < 70 ? 2000 + yy : 1900 + yy) : yy, words[2])
        } else if words.count == 5 {
            // asctime: weekday Mon D HH:MM:SS YYYY
            (day, month, year, time) = (Int(words[2]), monthNumber(words[1]), Int(words[4]), words[3])
        } else {
            return nil
        }
        let clock = time.split(separator: ":").map { Int($0) }
        guard let day, let month, let year, (1...31).contains(day), (1...9999).contains(year),
              clock.count == 3, let h = clock[0], let m = clock[1], let s = clock[2],
              (0...23).contains(h), (0...59).contains(m), (0...60).contains(s) else { return nil }
        let days = CivilDate.daysFromEpoch(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + h * 3600 + m * 60 + s))
    }

    private static func monthNumber(_ name: String) -> Int? {
        months.firstIndex(of: name.lowercased()).map { $0 + 1 }
    }
}
