import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// `[notify] quiet-hours = 22:00-07:00`: a daily span of local clock time in which no
/// notification is shown; what arrives meanwhile is summarised in one notification after it.
/// Read on the wall clock of the local zone (`localtime_r`), so a span keeps its clock times
/// across a DST change; a span whose start is later than its end runs across midnight.
public struct QuietHours: Equatable, Sendable {
    /// Minutes since local midnight.
    public let start: Int
    public let end: Int

    /// From "HH:MM-HH:MM" (24-hour clock); nil for anything else, or an empty span.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = QuietHours.minutes(parts[0]), let end = QuietHours.minutes(parts[1]),
              start != end else { return nil }
        self.start = start
        self.end = end
    }

    private static func minutes(_ text: Substring) -> Int? {
        let clock = text.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 2, clock[1].count == 2, (1...2).contains(clock[0].count),
              clock.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let h = Int(clock[0]), let m = Int(clock[1]), (0..<24).contains(h), (0..<60).contains(m) else { return nil }
        return h * 60 + m
    }

    /// Whether `now`'s local clock time falls in the span (its start included, its end not).
    public func contains(_ now: Date) -> Bool {
        let t = LocalTime.brokenDown(now)
        return contains(minuteOfDay: Int(t.tm_hour) * 60 + Int(t.tm_min))
    }

    func contains(minuteOfDay m: Int) -> Bool {
        start < end ? (start <= m && m < end) : (m >= start || m < end)
    }

    /// When the span that holds `now` ends: the next time the local clock reads its end. On a
    /// day whose clock skips that time (DST starting), the first moment after the gap.
    public func end(after now: Date) -> Date {
        var t = LocalTime.brokenDown(now)
        let minuteOfDay = Int(t.tm_hour) * 60 + Int(t.tm_min)
        if minuteOfDay >= end { t.tm_mday += 1 }
        t.tm_hour = Int32(end / 60)
        t.tm_min = Int32(end % 60)
        t.tm_sec = 0
        t.tm_isdst = -1 // mktime works out whether that day's clock time is summer time
        return Date(timeIntervalSince1970: TimeInterval(mktime(&t)))
    }

    /// As written in the config: "22:00-07:00".
    public var description: String {
        func clock(_ m: Int) -> String { NumberText.padded(m / 60, width: 2) + ":" + NumberText.padded(m % 60, width: 2) }
        return clock(start) + "-" + clock(end)
    }
}
