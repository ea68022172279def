import FoundationEssentials

/// RFC 3339 dates as the APIs send them, with or without fractional seconds, and back out with
/// milliseconds kept. By hand, on `CivilDate`: Date.ISO8601FormatStyle costs a resident process
/// megabytes of conformance tables.
public enum ISO8601 {
    /// What Date.ISO8601FormatStyle parsed: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of up to 9
    /// digits, then `Z`, `GMT`/`UTC`, or an offset `±hh`, `±hhmm`, `±hh:mm` (or with seconds),
    /// surrounding whitespace ignored. Unlike it, a day past the month's end (Feb 30) and text
    /// after the zone are refused, not rolled over or ignored. A leap second (`:60`) reads as the
    /// next minute's first, as it did; years before 1582 are proleptic Gregorian (RFC 3339), where
    /// the format style switched to the Julian calendar.
    public static func parse(_ text: String) -> Date? {
        var scanner = DateScanner(Array(text.trimmed().utf8))
        return scanner.date()
    }

    /// `2026-11-29T21:58:10.512Z`. Rounds to the millisecond: a Date (a Double counted from 2001)
    /// holds `.512` as `.51199996...`, which truncating would print `.511`. Without milliseconds,
    /// `2026-11-29T21:58:10Z`, the second truncated as Date.ISO8601FormatStyle() did.
    public static func format(_ date: Date, milliseconds: Bool = true) -> String {
        // RFC 3339 has four-digit years: a date a server made up beyond them (or not a number)
        // is written as the nearest one it can say, never trapping in the Int64 conversion.
        let t = date.timeIntervalSince1970
        let clamped = t.isNaN ? 0 : min(max(t, earliest), latest)
        let ms = milliseconds ? Int64((clamped * 1000).rounded())
                              : Int64(clamped.rounded(.down)) * 1000
        let (seconds, milli) = floorDivide(ms, 1000)
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = civil(fromDays: Int(days))
        func pad(_ n: Int, _ width: Int) -> String {
            let digits = String(n)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let s = Int(secondOfDay)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(s / 3600, 2) + ":"
            + pad(s / 60 % 60, 2) + ":" + pad(s % 60, 2) + (milliseconds ? "." + pad(Int(milli), 3) : "") + "Z"
    }

    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, in seconds since 1970.
    static let earliest: TimeInterval = -62_135_596_800
    static let latest: TimeInterval = 253_402_300_799.999

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a >= 0 ? a / b : (a - b + 1) / b
        return (q, a - q * b)
    }

    /// Year, month, day of a day count from 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civil(fromDays z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// Reads one RFC 3339 timestamp, front to back.
private struct DateScanner {
    let bytes: [UInt8]
    var i = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func date() -> Date? {
        guard let year = digits(max: 10), expect("-"),
              let month = digits(max: 10), (1...12).contains(month), expect("-"),
              let day = digits(max: 10), day >= 1, day <= CivilDate.daysIn(month: month, year: year),
              expect("T"),
              let hour = digits(max: 2), hour <= 24, expect(":"),
              let minute = digits(max: 2), minute < 60, expect(":"),
              let second = digits(max: 2), second <= 60 else { return nil }
        var nanos = 0
        if peek == UInt8(ascii: ".") {
            i += 1
            let start = i
            guard let fraction = digits(max: 10), i - start <= 9 else { return nil }
            nanos = fraction
            for _ in (i - start)..<9 { nanos *= 10 }
        }
        if hour == 24, minute != 0 || second != 0 || nanos != 0 { return nil }
        guard let offset = zone(), i == bytes.count else { return nil }
        let days = CivilDate.daysFromEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanos) / 1_000_000_000)
    }

    private var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func expect(_ c: Unicode.Scalar) -> Bool {
        guard peek == UInt8(c.value) else { return false }
        i += 1
        return true
    }

    /// One or more ASCII digits, at most `max`.
    private mutating func digits(max: Int) -> Int? {
        var value = 0, count = 0
        while count < max, let b = peek, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") {
            value = value * 10 + Int(b - UInt8(ascii: "0"))
            count += 1
            i += 1
        }
        return count == 0 ? nil : value
    }

    private mutating func expectWord(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard bytes.count - i >= w.count else { return false }
        for k in 0..<w.count where bytes[i + k] | 0x20 != w[k] { return false }
        i += w.count
        return true
    }

    /// Seconds east of UTC.
    private mutating func zone() -> Int? {
        if expect("Z") || expect("z") { return 0 }
        if expectWord("gmt") || expectWord("utc") {
            if peek != UInt8(ascii: "+") && peek != UInt8(ascii: "-") { return 0 }
        }
        guard let sign = peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        i += 1
        guard let hours = digits(max: 2), hours < 25 else { return nil }
        var offset = hours * 3600
        _ = expect(":")
        if let b = peek, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") {
            guard let minutes = digits(max: 2), minutes < 60 else { return nil }
            offset += minutes * 60
            _ = expect(":")
            if peek != nil {
                guard let seconds = digits(max: 2), seconds <= 60 else { return nil }
                offset += min(seconds, 59)
            }
        }
        // TimeZone(secondsFromGMT:) refuses offsets of 18 hours and more.
        guard offset < 18 * 3600 else { return nil }
        return sign == UInt8(ascii: "-") ? -offset : offset
    }
}
