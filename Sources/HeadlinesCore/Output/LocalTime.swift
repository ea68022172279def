import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A date in the local zone as libc breaks it down: `localtime_r` reads TZ and /etc/localtime,
/// which FoundationEssentials' TimeZone cannot without ICU. For the bars' clock times and the
/// CLI's.
public enum LocalTime {
    public static func brokenDown(_ date: Date) -> tm {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var out = tm()
        localtime_r(&seconds, &out)
        return out
    }
}
