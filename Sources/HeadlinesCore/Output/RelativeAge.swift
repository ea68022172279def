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

    /// The next instant after `now` at which `describe(date, now:)` reads differently, so a
    /// process showing it can sleep until then.
    public static func nextChange(_ date: Date, now: Date) -> Date {
        let seconds = now.timeIntervalSince(date)
        let step: TimeInterval
        if seconds < 3600 { step = 60 } else if seconds < 48 * 3600 { step = 3600 } else { step = 86400 }
        guard seconds >= 0 else { return date.addingTimeInterval(-60) > now ? date.addingTimeInterval(-60) : date.addingTimeInterval(60) }
        return date.addingTimeInterval((seconds / step).rounded(.down) * step + step)
    }
}
