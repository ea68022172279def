import FoundationEssentials

/// New headlines not shown while the desktop or the config said to keep quiet, or past
/// `[notify] max-per-hour`, counted for the one notification that summarises them.
public struct HeldHeadlines: Equatable, Sendable {
    public enum Reason: Equatable, Sendable {
        case doNotDisturb, quietHours, hourlyCap

        /// How the summary ends: "5 new headlines while Do Not Disturb was on".
        public var phrase: String {
            switch self {
            case .doNotDisturb: "while Do Not Disturb was on"
            case .quietHours: "during quiet hours"
            case .hourlyCap: "past max-per-hour"
            }
        }
    }

    public var count: Int
    public var reason: Reason

    public init(count: Int, reason: Reason) {
        self.count = count
        self.reason = reason
    }
}

/// What `headlines status` says of the notifications a running host holds back: how many for
/// Do Not Disturb and for quiet hours, and until when quiet hours last (nil outside them).
public struct HeldCounts: Equatable, Sendable {
    public var doNotDisturb: Int
    public var quietHours: Int
    public var quietUntil: Date?

    public init(doNotDisturb: Int = 0, quietHours: Int = 0, quietUntil: Date? = nil) {
        self.doNotDisturb = doNotDisturb
        self.quietHours = quietHours
        self.quietUntil = quietUntil
    }

    /// The status line, nil when nothing is held and it is not quiet.
    public var sentence: String? {
        var parts: [String] = []
        if doNotDisturb > 0 {
            parts.append(NumberText.counted(doNotDisturb, "new headline") + " while Do Not Disturb is on, summarised when it ends")
        }
        if let quietUntil {
            parts.append(NumberText.counted(quietHours, "new headline") + " during quiet hours, summarised at the first reload after "
                         + LocalTime.stamp(quietUntil))
        } else if quietHours > 0 {
            parts.append(NumberText.counted(quietHours, "new headline") + " from quiet hours, summarised at the next reload")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
