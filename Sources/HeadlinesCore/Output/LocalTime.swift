import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A date in the local zone as libc breaks it down: `localtime_r` reads TZ and /etc/localtime,
/// which FoundationEssentials' TimeZone cannot without ICU. For the bars' clock times and the
/// CLI's.
public enum LocalTime {
    public static func brokenDown(_ date: Date) -> tm {
        // A date a server sent (a Retry-After, a published time) can be anything: held to years
        // 1 to 9999, which time_t and localtime_r both take.
        let interval = date.timeIntervalSince1970
        let bounded = interval.isFinite ? min(max(interval, -62_135_596_800), 253_402_300_799) : 0
        var seconds = time_t(bounded.rounded(.down))
        var out = tm()
        localtime_r(&seconds, &out)
        return out
    }

    /// The one way a date is written for people: `status`, error sentences and the host's log
    /// all say "2026-11-30 09:15:02 +0100" (local time, with its offset from UTC, so a line
    /// copied from a journal or another machine stays unambiguous). JSON keeps RFC 3339.
    public static func stamp(_ date: Date) -> String {
        let t = brokenDown(date)
        let offset = Int(t.tm_gmtoff) / 60
        let sign = offset < 0 ? "-" : "+"
        return String(t.tm_year + 1900) + "-" + NumberText.padded(Int(t.tm_mon) + 1, width: 2) + "-"
            + NumberText.padded(Int(t.tm_mday), width: 2) + " " + NumberText.padded(Int(t.tm_hour), width: 2) + ":"
            + NumberText.padded(Int(t.tm_min), width: 2) + ":" + NumberText.padded(Int(t.tm_sec), width: 2) + " "
            + sign + NumberText.padded(abs(offset) / 60, width: 2) + NumberText.padded(abs(offset) % 60, width: 2)
    }
}
