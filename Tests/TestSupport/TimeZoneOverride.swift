import Foundation

/// Sets the C library's time zone (TZ, then tzset) for a test and puts the old one back: bar
/// clock times are local, so a golden written for one zone needs that zone. A POSIX rule such as
/// `UTC0` or `CET-1CEST,M3.5.0,M10.5.0/3` needs no tzdata.
public struct TimeZoneOverride {
    private let saved: String?

    public init(_ rule: String) {
        saved = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", rule, 1)
        tzset()
    }

    public func restore() {
        if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
        tzset()
    }
}
