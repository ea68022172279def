import FoundationEssentials

/// "just now", "12 min ago", "3 h ago", "2 days ago": how old something is, for people. From a
/// week on, the date the bars' tooltips show ("2 Mar", "2 Mar 2024"): "1005 days ago" beside
/// "2 Mar 2024" says the same thing less clearly.
public enum RelativeAge {
    public static func describe(_ date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        if seconds < 60 { return seconds < -60 ? "in the future" : "just now" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes) min ago" }
        let hours = minutes / 60
        if hours < 48 { return "\(hours) h ago" }
        if hours / 24 < 7 { return "\(hours / 24) days ago" }
        return BarClock.describe(date, now: now)
    }
}
