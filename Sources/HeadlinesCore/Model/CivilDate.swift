import FoundationEssentials

/// Calendar arithmetic on the proleptic Gregorian calendar in UTC, without Calendar or a time zone
/// database: the one place the RFC 3339 and RFC 822 readers turn fields into an instant and the
/// writers turn an instant back into fields.
enum CivilDate {
    /// The instant of a wall-clock reading `offset` seconds east of UTC, or nil when a field is
    /// out of range (Feb 30, 25:00, an offset of 18 hours or more). A leap second (`:60`) reads as
    /// the next minute's first: a Date cannot hold it.
    static func instant(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                        nanosecond: Int = 0, offset: Int) -> Date? {
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (0..<1_000_000_000).contains(nanosecond), abs(offset) < 18 * 3600 else { return nil }
        let days = daysFromEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanosecond) / 1_000_000_000)
    }

    /// The UTC fields of `seconds` since 1970; `weekday` counts from Sunday (0).
    static func fields(ofSecond seconds: Int64)
        -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Int) {
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = civil(fromDays: Int(days))
        let s = Int(secondOfDay)
        // 1970-01-01 was a Thursday.
        let weekday = Int(floorDivide(days + 4, 7).1)
        return (year, month, day, s / 3600, s / 60 % 60, s % 60, weekday)
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a >= 0 ? a / b : (a - b + 1) / b
        return (q, a - q * b)
    }

    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
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

    /// Days in `month` (1-12) of `year`.
    static func daysIn(month: Int, year: Int) -> Int {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }
}
