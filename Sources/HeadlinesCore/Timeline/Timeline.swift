import FoundationEssentials

/// WidgetKit's reload policies: when the provider wants its next timeline.
public enum ReloadPolicy: Equatable, Sendable {
    /// After the last entry's date.
    case atEnd
    /// At (or after) a given date.
    case after(Date)
    /// Only when someone asks (`headlines refresh`, the bus's Reload): WidgetCenter.reloadTimelines.
    case never
}

/// One dated thing to show, as a widget timeline entry.
public struct TimelineEntry: Equatable, Sendable {
    public var date: Date
    public var content: WidgetContent

    public init(date: Date, content: WidgetContent) {
        self.date = date
        self.content = content
    }
}

/// How fresh what is shown is: bars turn this into classes and colours.
public enum Freshness: String, Codable, Equatable, Sendable {
    /// Sample text shown before anything is known (WidgetKit's placeholder).
    case placeholder
    /// From a reload that just succeeded.
    case fresh
    /// From the cache (a snapshot at start-up, before the first reload).
    case cached
    /// From the cache because the last reload failed.
    case stale
    /// Nothing to show: no cache and the reload failed or found nothing.
    case empty
}

/// What a widget entry shows: the headline list and which one is current.
public struct WidgetContent: Equatable, Sendable {
    public var headlines: [Headline]
    /// Index into `headlines` of the one on display.
    public var index: Int
    public var freshness: Freshness
    public var fetchedAt: Date?
    /// The last reload's error sentence, when it failed.
    public var error: String?
    /// When the reload succeeded but some feeds failed: one sentence per failing feed.
    public var partialFailures: [String]?

    public init(headlines: [Headline], index: Int = 0, freshness: Freshness, fetchedAt: Date?, error: String? = nil,
                partialFailures: [String]? = nil) {
        self.headlines = headlines
        self.index = index
        self.freshness = freshness
        self.fetchedAt = fetchedAt
        self.error = error
        self.partialFailures = partialFailures?.isEmpty == false ? partialFailures : nil
    }

    public var current: Headline? { headlines.isEmpty ? nil : headlines[index % headlines.count] }
}

/// Entries in date order plus a reload policy.
public struct Timeline: Equatable, Sendable {
    public var entries: [TimelineEntry]
    public var policy: ReloadPolicy

    public init(entries: [TimelineEntry], policy: ReloadPolicy) {
        self.entries = entries.sorted { $0.date < $1.date }
        self.policy = policy
    }

    /// The entry on display at `now`: the last one whose date has come, else the first.
    public func entry(at now: Date) -> TimelineEntry? {
        entries.last(where: { $0.date <= now }) ?? entries.first
    }

    /// The same timeline moved later by `seconds`: a reload's timeline is built from the time it
    /// started, and the host re-anchors it to when the answer arrived (a slow or timed-out request
    /// must not leave every entry, and the retry, in the past).
    public func shifted(by seconds: TimeInterval) -> Timeline {
        let moved = entries.map { TimelineEntry(date: $0.date.addingTimeInterval(seconds), content: $0.content) }
        switch policy {
        case let .after(date): return Timeline(entries: moved, policy: .after(date.addingTimeInterval(seconds)))
        case .atEnd, .never: return Timeline(entries: moved, policy: policy)
        }
    }

    /// When the display next changes after `now`, if it does.
    public func nextEntryDate(after now: Date) -> Date? {
        entries.first(where: { $0.date > now })?.date
    }

    /// When the policy asks for a new timeline; nil for `never`.
    public var requestedReloadDate: Date? {
        switch policy {
        case .atEnd: return entries.last?.date
        case let .after(date): return date
        case .never: return nil
        }
    }
}
