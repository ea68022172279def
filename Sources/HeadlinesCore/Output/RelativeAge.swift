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
}
