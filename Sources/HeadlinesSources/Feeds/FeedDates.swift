import FoundationEssentials
import HeadlinesCore
import FeedXML

/// Dates as feeds write them: RFC 822 (`Mon, 02 Jan 2006 15:04:05 -0700`, named and military
/// zones), RFC 3339 with or without a fraction, and the broken variants seen in the wild (no day
/// name, 2-digit years, single-digit days, no seconds, `2024-01-01 12:00:00`, any case, extra
/// spaces, a trailing "(UTC)"). A date without a zone is taken as UTC.
public enum FeedDates {
    /// The instant `text` names, or nil when it is not a date this reader recognises.
    public static func parse(_ text: String) -> Date? {
        var s = text.trimmingWhitespace.lowercased()
        if s.hasSuffix(")"), let open = s.lastIndex(of: "(") {
            s = s[..<open].trimmingWhitespace
        }
        guard !s.isEmpty, s.count < 80 else { return nil }
        if s.prefix(4).allSatisfy(\.isASCIIDigit), let date = rfc3339(s) { return date }
        return rfc822(s)
    }

    // MARK: RFC 3339 and its relatives

    private static func rfc3339(_ s: String) -> Date? {
        var scan = Scanner(s)
        guard let year = scan.number(digits: 4...4), scan.skip("-") || scan.skip("/"),
              let month = scan.number(digits: 1...2), scan.skip("-") || scan.skip("/"),
              let day = scan.number(digits: 1...2) else { return nil }
        var time = (hour: 0, minute: 0, second: 0, fraction: 0.0)
        if scan.skip("t") || scan.skip(" ") {
            scan.skipSpaces()
            // Single-digit fields happen ("12:35:9+01:00", "9:5"): one or two digits each.
            guard let hour = scan.number(digits: 1...2), scan.skip(":"), let minute = scan.number(digits: 1...2) else { return nil }
            time = (hour, minute, 0, 0)
            if scan.skip(":") {
                guard let second = scan.number(digits: 1...2) else { return nil }
                time.second = second
                if scan.skip(".") || scan.skip(",") { time.fraction = scan.fraction() }
            }
        }
        scan.skipSpaces()
        var offset = 0
        if !scan.atEnd {
            guard let zone = zoneOffset(scan.rest) else { return nil }
            offset = zone
        }
        return make(year: year, month: month, day: day, time: time, offset: offset)
    }

    // MARK: RFC 822 and its relatives

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    private static func rfc822(_ s: String) -> Date? {
        var numbers: [Substring] = []
        var month: Int?
        var clock: (hour: Int, minute: Int, second: Int, fraction: Double)?
        var offset: Int?
        var meridiem: String?
        for var token in s.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }) {
            if token.hasSuffix(".") { token = token.dropLast() }
            if token.contains(":") && token.first?.isASCIIDigit == true {
                // "15:04:05", possibly glued to its zone ("15:04:05z", "15:04:05+0100") or "pm".
                var digits = token
                if let zoneStart = token.firstIndex(where: { $0 == "+" || $0 == "-" || $0.isLetter }) {
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
            } else if let m = months.firstIndex(where: { token.hasPrefix($0) && isName(token, $0, of: monthNames) }) {
                guard month == nil else { return nil }
                month = m + 1
            } else if weekdays.contains(where: { token.hasPrefix($0) }) && token.count <= 9 {
                continue
            } else if let z = zoneOffset(token) {
                offset = z
            } else if token.contains("-"), token.first?.isASCIIDigit == true {
                // "02-jan-2006"
                let pieces = token.split(separator: "-")
                guard pieces.count == 3, let m = months.firstIndex(where: { pieces[1].hasPrefix($0) }) else { return nil }
                month = m + 1
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
        return make(year: year, month: month, day: day, time: time, offset: offset ?? 0)
    }

    private static let monthNames = ["january", "february", "march", "april", "may", "june", "july", "august",
                                      "september", "october", "november", "december", "sept"]

    /// "jan", "january" and "sept" name a month; "janitor" does not.
    private static func isName(_ token: Substring, _ prefix: String, of names: [String]) -> Bool {
        token.count == 3 || names.contains { $0.hasPrefix(token) }
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

    // MARK: Zones

    /// RFC 822's zones, and the other abbreviations feeds print that name one zone only (IST and
    /// the like are ambiguous and left out), in minutes east of UTC.
    private static let namedZones: [String: Int] = [
        "z": 0, "ut": 0, "utc": 0, "gmt": 0,
        "est": -300, "edt": -240, "cst": -360, "cdt": -300, "mst": -420, "mdt": -360, "pst": -480, "pdt": -420,
        "akst": -540, "akdt": -480, "hst": -600, "ast": -240, "adt": -180, "nst": -210, "ndt": -150,
        "wet": 0, "west": 60, "bst": 60, "cet": 60, "cest": 120, "met": 60, "mest": 120, "eet": 120, "eest": 180,
        "msk": 180, "jst": 540, "kst": 540, "hkt": 480, "sgt": 480, "aest": 600, "aedt": 660, "acst": 570,
        "acdt": 630, "awst": 480, "nzst": 720, "nzdt": 780,
    ]

    /// Seconds east of UTC for "z", "gmt", "est", "+0100", "-05:00", "+01", "gmt+1" and military
    /// letters. RFC 822 printed the military signs backwards (RFC 1123 §5.2.14); these are the real
    /// ones: A is UTC+1, N is UTC-1.
    private static func zoneOffset(_ zone: Substring) -> Int? {
        let z = zone.trimmingWhitespace
        if let minutes = namedZones[z] { return minutes * 60 }
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

    private static func numericOffset(_ z: Substring) -> Int? {
        guard let sign = z.first, sign == "+" || sign == "-" else { return nil }
        let digits = z.dropFirst().filter { $0 != ":" }
        guard digits.allSatisfy(\.isASCIIDigit), [1, 2, 4].contains(digits.count) else { return nil }
        let hours = Int(digits.prefix(digits.count == 4 ? 2 : digits.count))!
        let minutes = digits.count == 4 ? Int(digits.suffix(2))! : 0
        guard hours <= 14, minutes < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    // MARK: Assembly

    private static func make(year: Int, month: Int, day: Int,
                             time: (hour: Int, minute: Int, second: Int, fraction: Double), offset: Int) -> Date? {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year),
              (0...23).contains(time.hour), (0...59).contains(time.minute), (0...60).contains(time.second) else { return nil }
        let days = CivilDate.daysFromEpoch(year: year, month: month, day: day)
        let seconds = days * 86400 + time.hour * 3600 + time.minute * 60 + min(time.second, 59) - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds) + time.fraction)
    }



    /// A cursor over an ASCII date.
    private struct Scanner {
        let chars: [Character]
        var i = 0
        init(_ s: String) { chars = Array(s) }
        var atEnd: Bool { i >= chars.count }
        var rest: Substring { Substring(String(chars[i...])) }
        mutating func skip(_ c: Character) -> Bool {
            guard i < chars.count, chars[i] == c else { return false }
            i += 1
            return true
        }
        mutating func skipSpaces() { while i < chars.count, chars[i] == " " { i += 1 } }
        mutating func number(digits: ClosedRange<Int>) -> Int? {
            var j = i
            while j < chars.count, j - i < digits.upperBound, chars[j].isASCIIDigit { j += 1 }
            guard digits.contains(j - i), j >= chars.count || !chars[j].isASCIIDigit else { return nil }
            defer { i = j }
            return Int(String(chars[i..<j]))
        }
        mutating func fraction() -> Double {
            var j = i
            while j < chars.count, chars[j].isASCIIDigit { j += 1 }
            defer { i = j }
            return Double("0." + String(chars[i..<j])) ?? 0
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
