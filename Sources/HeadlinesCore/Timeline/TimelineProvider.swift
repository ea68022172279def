import FoundationEssentials

/// WidgetKit's three questions, asked of a source of entries.
public protocol TimelineProvider: Sendable {
    /// Instant and without I/O: what to show before anything is known.
    func placeholder() -> TimelineEntry
    /// Quick: from the cache or sample data, no network.
    func snapshot(now: Date) -> TimelineEntry
    /// The real work: reload from the network and say when to come back.
    func timeline(now: Date, consecutiveFailures: Int) async -> TimelineResult
    /// What to show from a snapshot until the first reload at `reloadAt`.
    func snapshotTimeline(_ snapshot: TimelineEntry, reloadAt: Date) -> Timeline
}

extension TimelineProvider {
    public func snapshotTimeline(_ snapshot: TimelineEntry, reloadAt: Date) -> Timeline {
        Timeline(entries: [snapshot], policy: .after(reloadAt))
    }
}

/// A timeline plus what the reload did, so the host can update its ledger and notify.
public struct TimelineResult: Sendable {
    public var timeline: Timeline
    /// nil on success; the failure otherwise.
    public var failure: RefreshFailure?
    /// The headlines fetched (only on success), for notifications.
    public var fetched: [Headline]?

    public init(timeline: Timeline, failure: RefreshFailure?, fetched: [Headline]?) {
        self.timeline = timeline
        self.failure = failure
        self.fetched = fetched
    }
}

/// The headlines widget: reloads through a `Refresher`, rotates through the top headlines every
/// `rotate` seconds, and asks to be reloaded `interval` after a success, sooner after a failure.
public struct HeadlinesTimelineProvider: TimelineProvider {
    public var refresher: Refresher
    public var interval: TimeInterval
    public var rotate: TimeInterval
    /// Most entries one timeline holds, so a tiny rotate and a long interval stay bounded.
    public var maxEntries = 720
    /// How long rotation goes on past the reload date, so the bar keeps rotating while a reload
    /// is in flight (up to the request timeout); the reload's timeline replaces it anyway.
    public var rotationTail: TimeInterval = 0
    public var warn: @Sendable (String) -> Void
    /// Muted sources are hidden from every entry (and so from bars).
    public var mutedFile: StateFile<MutedSources>?

    public init(refresher: Refresher, interval: TimeInterval, rotate: TimeInterval,
                mutedFile: StateFile<MutedSources>? = nil, warn: @escaping @Sendable (String) -> Void) {
        self.refresher = refresher
        self.mutedFile = mutedFile
        self.interval = interval
        self.rotate = rotate
        self.warn = warn
    }

    public func placeholder() -> TimelineEntry {
        let sample = Headline(id: "placeholder", title: "Headlines", url: URL(string: "https://example.invalid/")!,
                              source: "headlines", publishedAt: Date(timeIntervalSince1970: 0))
        return TimelineEntry(date: .distantPast,
                             content: WidgetContent(headlines: [sample], freshness: .placeholder, fetchedAt: nil))
    }

    public func snapshot(now: Date) -> TimelineEntry {
        let cached = refresher.cache.load(now: now, warn: warn)
        let headlines = visible(cached?.headlines ?? [], now: now)
        guard let cached, !headlines.isEmpty else {
            return TimelineEntry(date: now, content: WidgetContent(headlines: [], freshness: .empty, fetchedAt: cached?.fetchedAt))
        }
        return TimelineEntry(date: now, content: WidgetContent(headlines: headlines, freshness: .cached,
                                                               fetchedAt: cached.fetchedAt))
    }

    /// The headlines minus muted sources.
    func visible(_ headlines: [Headline], now: Date) -> [Headline] {
        guard let muted = mutedFile?.load(now: now, warn: warn), !muted.sources.isEmpty else { return headlines }
        return muted.filter(headlines)
    }

    public func timeline(now: Date, consecutiveFailures: Int) async -> TimelineResult {
        switch await refresher.refreshWithReport(now: now, warn: warn) {
        case let .success(outcome):
            let cached = outcome.cached
            let shown = visible(cached.headlines, now: now)
            let content = WidgetContent(headlines: shown, freshness: shown.isEmpty ? .empty : .fresh,
                                        fetchedAt: cached.fetchedAt, partialFailures: outcome.partialFailures)
            let reload = now.addingTimeInterval(interval)
            return TimelineResult(timeline: rotating(content, from: now, until: reload), failure: nil,
                                  fetched: cached.headlines)
        case let .failure(failure):
            let cached = refresher.cache.load(now: now, warn: warn)
            let headlines = visible(cached?.headlines ?? [], now: now)
            let content = WidgetContent(headlines: headlines, freshness: headlines.isEmpty ? .empty : .stale,
                                        fetchedAt: cached?.fetchedAt, error: failure.message)
            let retry = now.addingTimeInterval(Backoff.delay(afterFailures: consecutiveFailures + 1, interval: interval))
            return TimelineResult(timeline: rotating(content, from: now, until: retry), failure: failure, fetched: nil)
        }
    }

    public func snapshotTimeline(_ snapshot: TimelineEntry, reloadAt: Date) -> Timeline {
        rotating(snapshot.content, from: snapshot.date, until: reloadAt)
    }

    /// Entries every `rotate` seconds through the list until `reload` (and `rotationTail` past
    /// it), with the policy `after(reload)`.
    func rotating(_ content: WidgetContent, from now: Date, until reload: Date) -> Timeline {
        guard rotate > 0, content.headlines.count > 1 else {
            return Timeline(entries: [TimelineEntry(date: now, content: content)], policy: .after(reload))
        }
        var entries: [TimelineEntry] = []
        var date = now
        var index = 0
        let end = reload.addingTimeInterval(rotationTail)
        while date < end && entries.count < maxEntries {
            var c = content
            c.index = index % content.headlines.count
            entries.append(TimelineEntry(date: date, content: c))
            index += 1
            date = date.addingTimeInterval(rotate)
        }
        return Timeline(entries: entries, policy: .after(reload))
    }
}

/// Exponential back-off after failures: about a minute, doubling, never more than the interval.
public enum Backoff {
    public static let first: TimeInterval = 60

    public static func delay(afterFailures failures: Int, interval: TimeInterval) -> TimeInterval {
        guard failures > 0 else { return interval }
        let exponent = min(failures - 1, 20)
        return min(max(interval, 1), first * Double(1 << exponent))
    }
}
