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
        var scanner = DateScanner(text, trimming: true)
        return scanner.rfc3339()
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
        let (seconds, milli) = CivilDate.floorDivide(ms, 1000)
        let f = CivilDate.fields(ofSecond: seconds)
        // Written digit by digit into one buffer: every state file and bar document carries
        // dozens of these, and joining thirteen small strings cost several times the date math.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func put(_ n: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(n / divisor % 10))
                divisor /= 10
            }
        }
        put(f.year, 4); bytes.append(UInt8(ascii: "-")); put(f.month, 2); bytes.append(UInt8(ascii: "-")); put(f.day, 2)
        bytes.append(UInt8(ascii: "T")); put(f.hour, 2); bytes.append(UInt8(ascii: ":")); put(f.minute, 2)
        bytes.append(UInt8(ascii: ":")); put(f.second, 2)
        if milliseconds { bytes.append(UInt8(ascii: ".")); put(Int(milli), 3) }
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, in seconds since 1970.
    static let earliest: TimeInterval = -62_135_596_800
    static let latest: TimeInterval = 253_402_300_799.999
}

/// Reads one RFC 3339 timestamp, front to back.
private extension DateScanner {
    mutating func rfc3339() -> Date? {
        guard let year = digits(max: 10), expect("-"), let month = digits(max: 10), expect("-"),
              let day = digits(max: 10), expect("T"),
              let hour = digits(max: 2), expect(":"), let minute = digits(max: 2), expect(":"),
              let second = digits(max: 2) else { return nil }
        var nanos = 0
        if expect(".") {
            let start = position
            guard let fraction = digits(max: 10), position - start <= 9 else { return nil }
            nanos = fraction
            for _ in (position - start)..<9 { nanos *= 10 }
        }
        guard let offset = rfc3339Zone(), atEnd else { return nil }
        // 24:00:00 is ISO 8601's end of the day, the next day's midnight.
        guard hour == 24 else {
            return CivilDate.instant(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                                     nanosecond: nanos, offset: offset)
        }
        guard minute == 0, second == 0, nanos == 0 else { return nil }
        return CivilDate.instant(year: year, month: month, day: day, hour: 0, minute: 0, second: 0, offset: offset)?
            .addingTimeInterval(86_400)
    }

    /// Seconds east of UTC.
    mutating func rfc3339Zone() -> Int? {
        if expect("Z") || expect("z") { return 0 }
        if expectWord("gmt") || expectWord("utc") {
            if peek != UInt8(ascii: "+") && peek != UInt8(ascii: "-") { return 0 }
        }
        guard let sign = sign(), let hours = digits(max: 2), hours < 25 else { return nil }
        var offset = hours * 3600
        _ = expect(":")
        if peekIsDigit {
            guard let minutes = digits(max: 2), minutes < 60 else { return nil }
            offset += minutes * 60
            _ = expect(":")
            if !atEnd {
                guard let seconds = digits(max: 2), seconds <= 60 else { return nil }
                offset += min(seconds, 59)
            }
        }
        return sign * offset
    }
}
