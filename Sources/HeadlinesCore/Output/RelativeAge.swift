import FoundationEssentials

/// "just now", "12 min ago", "3 h ago", "2 days ago": how old something is, for people.
public enum RelativeAge {
    public static func describe(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        if seconds < 60 { return seconds < -60 ? "in the future" : "just now" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes) min ago" }
        let hours = minutes / 60
        if hours < 48 { return "\(hours) h ago" }
        return "\(hours / 24) days ago"
    }

    /// The age as a bar shows it: minutes in steps of five ("just now" under five, then "5 min
    /// ago", "10 min ago" ...), so the host rewrites a bar's tooltip at most every five minutes,
    /// not every minute, while it otherwise sleeps. Never later than the truth says.
    public static func barDescribe(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        if seconds < -60 { return "in the future" }
        if seconds < 300 { return "just now" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes / 5 * 5) min ago" }
        return describe(date, now: now)
    }

    /// The next instant after `now` at which `barDescribe(date, now:)` reads differently, so a
    /// process showing it can sleep until then.
    public static func nextBarChange(_ date: Date, now: Date) -> Date {
        let seconds = now.timeIntervalSince(date)
        if seconds < -60 { return date.addingTimeInterval(-60) }
        let step: TimeInterval
        if seconds < 3600 { step = 300 } else if seconds < 48 * 3600 { step = 3600 } else { step = 86400 }
        let elapsed = max(0, seconds)
        return date.addingTimeInterval((elapsed / step).rounded(.down) * step + step)
    }
}
