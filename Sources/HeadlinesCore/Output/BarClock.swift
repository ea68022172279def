import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// When a headline was published, as a bar's tooltip shows it: the local clock time ("14:05")
/// for today, the weekday and time ("Mon 14:05") for the six days before, the date ("28 Nov",
/// "28 Nov 2025" in another year) before that.
///
/// Why not an age ("10 min ago"): an age changes on its own, so every age step woke the host to
/// rewrite the lines and woke every bar copy to print them. A clock time changes only at local midnight, when "14:05"
/// becomes "Tue 14:05": a widget between refreshes costs one wake-up a day.
///
/// The local time zone is the C library's (TZ, else /etc/localtime), as `date` shows it; names
/// are English, like every other word the program prints.
public enum BarClock {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// What `describe` and `nextChange` need of `now`, worked out once for every line of a render
    /// (the local date of today and of the next eight local midnights): per line, what is left is
    /// one localtime_r of the headline's own date.
    public struct Day: Sendable {
        fileprivate let todayYear: Int32
        fileprivate let todayNumber: Int
        /// The next eight local midnights after `now`, with their local years and day numbers.
        fileprivate let midnights: [(at: Date, year: Int32, number: Int)]

        public init(now: Date) {
            let today = LocalTime.brokenDown(now)
            todayYear = today.tm_year
            todayNumber = BarClock.dayNumber(today)
            var list: [(at: Date, year: Int32, number: Int)] = []
            var midnight = now
            for _ in 0..<8 {
                midnight = BarClock.nextLocalMidnight(after: midnight)
                let t = LocalTime.brokenDown(midnight)
                list.append((midnight, t.tm_year, BarClock.dayNumber(t)))
            }
            midnights = list
        }
    }

    public static func describe(_ date: Date, now: Date) -> String { describe(date, on: Day(now: now)) }

    public static func describe(_ date: Date, on day: Day) -> String {
        let when = LocalTime.brokenDown(date)
        let time = NumberText.padded(Int(when.tm_hour), width: 2) + ":" + NumberText.padded(Int(when.tm_min), width: 2)
        switch form(when, dayNumber(when), todayYear: day.todayYear, todayNumber: day.todayNumber) {
        case .time: return time
        case .weekday: return weekdays[Int(when.tm_wday)] + " " + time
        case .date(let sameYear):
            let text = "\(when.tm_mday) " + months[Int(when.tm_mon)]
            return sameYear ? text : text + " \(1900 + Int(when.tm_year))"
        }
    }

    /// The next instant after `now` at which `describe(date, now:)` reads differently, or nil
    /// when it never will: a local midnight, today's ("14:05" becomes "Fri 14:05") or the one
    /// seven days on ("Fri 14:05" becomes "15 Jan").
    public static func nextChange(_ date: Date, now: Date) -> Date? { nextChange(date, on: Day(now: now)) }

    public static func nextChange(_ date: Date, on day: Day) -> Date? {
        let when = LocalTime.brokenDown(date), number = dayNumber(when)
        let label = form(when, number, todayYear: day.todayYear, todayNumber: day.todayNumber)
        return day.midnights.first { form(when, number, todayYear: $0.year, todayNumber: $0.number) != label }?.at
    }

    /// Which of the three forms `describe` writes; two dates in the same form read the same.
    private enum Form: Equatable { case time, weekday, date(sameYear: Bool) }

    private static func form(_ when: tm, _ whenNumber: Int, todayYear: Int32, todayNumber: Int) -> Form {
        let daysBefore = todayNumber - whenNumber
        if daysBefore <= 0 { return .time } // today, or a feed's clock running ahead
        if daysBefore < 7 { return .weekday }
        return .date(sameYear: when.tm_year == todayYear)
    }

    /// The first instant of the next local day after `now` (mktime sorts out DST).
    static func nextLocalMidnight(after now: Date) -> Date {
        var tm = LocalTime.brokenDown(now)
        tm.tm_mday += 1
        tm.tm_hour = 0; tm.tm_min = 0; tm.tm_sec = 0
        tm.tm_isdst = -1
        let t = mktime(&tm)
        return t == -1 ? now.addingTimeInterval(86400) : Date(timeIntervalSince1970: TimeInterval(t))
    }


    /// Days since an arbitrary epoch for a local calendar date (civil-from-days, Howard Hinnant).
    fileprivate static func dayNumber(_ t: tm) -> Int {
        let m = Int(t.tm_mon) + 1, d = Int(t.tm_mday)
        let y = Int(t.tm_year) + 1900 - (m <= 2 ? 1 : 0)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        return era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy
    }
}
