import FoundationEssentials

/// Calendar arithmetic on the proleptic Gregorian calendar in UTC, without Calendar or a time zone
/// database: what the HTTP and feed date readers need to turn fields into an instant.
public enum CivilDate {
    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    public static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Days in `month` (1-12) of `year`.
    public static func daysIn(month: Int, year: Int) -> Int {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }
}
