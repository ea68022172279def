import FoundationEssentials
import HeadlinesCore
import FeedXML

/// Dates as feeds write them. `ISO8601` and `RFC822` read the standard forms; this only repairs
/// the broken variants seen in the wild into one of those first: no day name or a long one, full
/// month names, 2- and 3-digit years, single-digit fields, no seconds, no time, no zone (UTC),
/// `2024/01/01 12:00:00`, a fraction of a second in an RFC 822 time, zones RFC 822 does not name
/// (`CEST`, `+01`, `+01:00`, `GMT+2`, military letters), the fields in another order
/// (`Jan 02, 2006 3:04 PM`), any case, extra spaces, a trailing "(UTC)".
public enum FeedDates {
    /// The instant `text` names, or nil when it is not a date this reader recognises.
    public static func parse(_ text: String) -> Date? {
        // The standard form first, with RFC 2822's two-digit years: nearly every item carries it.
        if text.utf8.count < 80, let date = RFC822.parse(text, pivot: 50) { return date }
        var s = text.trimmingWhitespace.lowercased()
        if s.hasSuffix(")"), let open = s.lastIndex(of: "(") {
            s = s[..<open].trimmingWhitespace
        }
        guard !s.isEmpty, s.count < 80 else { return nil }
        if let repaired = rfc3339(s), let date = ISO8601.parse(repaired) { return date }
        guard let (repaired, fraction) = rfc822(s), let date = RFC822.parse(repaired) else { return nil }
        return fraction == 0 ? date : Date(timeIntervalSince1970: date.timeIntervalSince1970 + fraction)
    }

    // MARK: RFC 3339 and its relatives

    /// `YYYY-MM-DDTHH:MM:SS[.fraction]zone` from a date with `-` or `/`, a `T` or a space (or no
    /// time at all), one- or two-digit fields, no seconds, a comma before the fraction, spaces
    /// before the zone, or a zone `ISO8601` does not read.
    private static func rfc3339(_ s: String) -> String? {
        var scan = DateScanner(s)
        guard let year = scan.digitText(4...4), scan.expect("-") || scan.expect("/"),
              let month = scan.digitText(1...2), scan.expect("-") || scan.expect("/"),
              let day = scan.digitText(1...2) else { return nil }
        var time = "00:00:00"
        if scan.expect("t") || scan.expect(" ") {
            while scan.expect(" ") {}
            guard let hour = scan.digitText(1...2), scan.expect(":"), let minute = scan.digitText(1...2) else { return nil }
            time = hour + ":" + minute + ":00"
            if scan.expect(":") {
                guard let second = scan.digitText(1...2) else { return nil }
                time = hour + ":" + minute + ":" + second
                // ISO8601 reads nine digits, a nanosecond, well past what a Date holds in 2026.
                if scan.expect(".") || scan.expect(","), let digits = scan.digitText(1...80) {
                    time += "." + digits.prefix(9)
                }
            }
        }
        scan.skipSpaces()
        var zone = "Z"
        if !scan.atEnd {
            guard let offset = zoneOffset(scan.rest[...]) else { return nil }
            zone = offset == 0 ? "Z" : numericZone(offset, separator: ":")
        }
        return year + "-" + month + "-" + day + "T" + time + zone
    }

    // MARK: RFC 822 and its relatives

    private static let monthNames = ["january", "february", "march", "april", "may", "june", "july", "august",
                                      "september", "october", "november", "december"]

    /// `D Mon YYYY H:M:S ±hhmm`, and the fraction of a second RFC 822 cannot say, from fields in
    /// any order, separated by spaces or commas: two numbers (day then year, or a four-digit year
    /// first), a month name, an optional time (glued to its zone or am/pm or not), zone and day name.
    private static func rfc822(_ s: String) -> (String, fraction: Double)? {
        var numbers: [Substring] = []
        var month: Substring?
        var clock: (hour: Int, minute: Int, second: Int, fraction: Double)?
        var offset: Int?
        var meridiem: String?
        for var token in s.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }) {
            if token.hasSuffix(".") { token = token.dropLast() }
            let bytewise = isPlainASCII(token)
            if token.contains(":") && token.first?.isASCIIDigit == true {
                // "15:04:05", possibly glued to its zone ("15:04:05z", "15:04:05+0100") or "pm".
                var digits = token
                if let zoneStart = token.firstIndex(where: { $0 == "+" || $0 == "-" || $0.isLetterQuickly }) {
                    let zone = token[zoneStart...]
                    if zone == "am" || zone == "pm" { meridiem = String(zone) }
                    else { guard let z = zoneOffset(zone) else { return nil }; offset = z }
                    digits = token[..<zoneStart]
                }
                guard clock == nil, let parsed = clockTime(digits) else { return nil }
                clock = parsed
            } else if token.allSatisfy(\.isASCIIDigit) {
                numbers.append(token)
            } else if token == "am" || token == "pm" || token == "a.m" || token == "p.m" {
                meridiem = String(token.prefix(1)) + "m"
            } else if token.count >= 3,
                      monthNames.contains(where: { bytewise ? $0.utf8.starts(with: token.utf8) : $0.hasPrefix(token) }) {
                // "jan", "january", "sept"; not "janitor".
                guard month == nil else { return nil }
                month = token.prefix(3)
            } else if RFC822.dayNames.contains(where: { bytewise ? token.utf8.starts(with: $0.utf8) : token.hasPrefix($0) }),
                      token.count <= 9 {
                continue
            } else if let z = zoneOffset(token) {
                offset = z
            } else if token.contains("-"), token.first?.isASCIIDigit == true {
                // "02-jan-2006"
                let pieces = token.split(separator: "-")
                guard pieces.count == 3, RFC822.month(pieces[1].prefix(3)) != nil else { return nil }
                month = pieces[1].prefix(3)
                numbers.append(contentsOf: [pieces[0], pieces[2]])
            } else {
                return nil
            }
        }
        guard let month, numbers.count == 2 else { return nil }
        let (dayText, yearText) = numbers[0].count == 4 ? (numbers[1], numbers[0]) : (numbers[0], numbers[1])
        guard dayText.count <= 2, let day = Int(dayText), var year = Int(yearText) else { return nil }
        switch yearText.count {
        case 2: year += year < 50 ? 2000 : 1900     // RFC 2822 §4.3
        case 3: year += 1900
        case 4: break
        default: return nil
        }
        var time = clock ?? (0, 0, 0, 0)
        if let meridiem {
            guard (1...12).contains(time.hour) else { return nil }
            time.hour = time.hour % 12 + (meridiem == "pm" ? 12 : 0)
        }
        let text = "\(day) \(month) \(NumberText.padded(year, width: 4)) \(time.hour):\(time.minute):\(time.second) "
            + numericZone(offset ?? 0, separator: "")
        return (text, time.fraction)
    }

    private static func clockTime(_ text: Substring) -> (hour: Int, minute: Int, second: Int, fraction: Double)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts[0].count <= 2, let hour = Int(parts[0]),
              (1...2).contains(parts[1].count), let minute = Int(parts[1]) else { return nil }
        guard parts.count == 3 else { return (hour, minute, 0, 0) }
        let secondParts = parts[2].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard (1...2).contains(secondParts[0].count), let second = Int(secondParts[0]) else { return nil }
        let fraction = secondParts.count == 2 ? Double("0." + secondParts[1]) ?? 0 : 0
        return (hour, minute, second, fraction)
    }

    /// ASCII without CR (which would pair with a following LF): each byte is a Character, so a
    /// token's bytes compare with a month or day name (ASCII) as its Characters do.
    private static func isPlainASCII(_ s: Substring) -> Bool { s.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D } }

    // MARK: Zones

    /// Abbreviations feeds print beyond RFC 822's that name one zone only (IST and the like are
    /// ambiguous and left out), in minutes east of UTC.
    private static let moreZones: [String: Int] = [
        "z": 0, "akst": -540, "akdt": -480, "hst": -600, "ast": -240, "adt": -180, "nst": -210, "ndt": -150,
        "wet": 0, "west": 60, "bst": 60, "cet": 60, "cest": 120, "met": 60, "mest": 120, "eet": 120, "eest": 180,
        "msk": 180, "jst": 540, "kst": 540, "hkt": 480, "sgt": 480, "aest": 600, "aedt": 660, "acst": 570,
        "acdt": 630, "awst": 480, "nzst": 720, "nzdt": 780,
    ]

    /// Seconds east of UTC for RFC 822's zones and "z", "cest", "+01", "-05:00", "gmt+1" and the
    /// military letters. RFC 822 printed the military signs backwards (RFC 1123 §5.2.14); these
    /// are the real ones: A is UTC+1, N is UTC-1.
    private static func zoneOffset(_ zone: Substring) -> Int? {
        let z = zone.trimmingWhitespace
        if let offset = RFC822.zoneOffset(z) { return offset }
        if let minutes = moreZones[z] { return minutes * 60 }
        if z.count == 1, let letter = z.unicodeScalars.first, ("a"..."y").contains(letter), letter != "j" {
            let v = Int(letter.value) - 0x61 + 1
            if v <= 9 { return v * 3600 }            // A-I: +1..+9
            if v <= 13 { return (v - 1) * 3600 }     // K-M: +10..+12
            return -(v - 13) * 3600                  // N-Y: -1..-12
        }
        for prefix in ["gmt", "utc", "ut"] where z.hasPrefix(prefix) {
            return numericOffset(z.dropFirst(prefix.count))
        }
        return numericOffset(Substring(z))
    }

    /// "+1", "+01", "+0100", "+01:00", up to 14 hours.
    private static func numericOffset(_ z: Substring) -> Int? {
        guard let sign = z.first, sign == "+" || sign == "-" else { return nil }
        let digits = z.dropFirst().filter { $0 != ":" }
        guard digits.allSatisfy(\.isASCIIDigit), [1, 2, 4].contains(digits.count) else { return nil }
        let hours = Int(digits.prefix(digits.count == 4 ? 2 : digits.count))!
        let minutes = digits.count == 4 ? Int(digits.suffix(2))! : 0
        guard hours <= 14, minutes < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// `+hhmm`, or `+hh:mm` with `separator`, for whole minutes east of UTC.
    private static func numericZone(_ offset: Int, separator: String) -> String {
        let minutes = abs(offset) / 60
        return (offset < 0 ? "-" : "+") + NumberText.padded(minutes / 60, width: 2) + separator
            + NumberText.padded(minutes % 60, width: 2)
    }
}

private extension Character {
    /// `isASCII && isNumber`: in ASCII only the digits are numbers.
    var isASCIIDigit: Bool { asciiValue.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
    /// `isLetter`, without looking up the properties of an ASCII character.
    var isLetterQuickly: Bool {
        guard let a = asciiValue else { return isLetter }
        return (a | 0x20) >= 0x61 && (a | 0x20) <= 0x7A
    }
}
