// A test seam: WidgetKit's three questions asked of a source of entries, which drives the real
// HostEngine through simulated days (EngineHarness) with a fetch in process.
import FoundationEssentials
import HeadlinesCore
import HeadlinesSources

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

/// The headlines widget: reloads through a `Refresher` and lays the answer out with
/// `TimelineLayout`, the same layout the host applies to a fetch child's report.
public struct HeadlinesTimelineProvider: TimelineProvider {
    public var refresher: Refresher
    public var layout: TimelineLayout
    public var warn: @Sendable (String) -> Void
    /// Muted sources are hidden from every entry (and so from bars).
    public var mutedFile: StateFile<MutedSources>?
    /// `[notify] mute-words`: hidden like a muted source.
    public var muteWords = KeywordMatcher()

    public var interval: TimeInterval { layout.interval }

    public init(refresher: Refresher, layout: TimelineLayout, mutedFile: StateFile<MutedSources>? = nil,
                warn: @escaping @Sendable (String) -> Void) {
        self.refresher = refresher
        self.layout = layout
        self.mutedFile = mutedFile
        self.warn = warn
    }

    public init(refresher: Refresher, interval: TimeInterval, rotate: TimeInterval,
                mutedFile: StateFile<MutedSources>? = nil, warn: @escaping @Sendable (String) -> Void) {
        self.init(refresher: refresher, layout: TimelineLayout(interval: interval, rotate: rotate),
                  mutedFile: mutedFile, warn: warn)
    }

    public func placeholder() -> TimelineEntry {
        let sample = Headline(id: "placeholder", title: "Headlines", url: URL(string: "https://example.invalid/")!,
                              source: "headlines", publishedAt: Date(timeIntervalSince1970: 0))
        return TimelineEntry(date: .distantPast,
                             content: WidgetContent(headlines: [sample], freshness: .placeholder, fetchedAt: nil))
    }

    public func snapshot(now: Date) -> TimelineEntry {
        let cached = refresher.cache.load(now: now, warn: warn)
        let headlines = muted(now).filter(cached?.headlines ?? [])
        guard let cached, !headlines.isEmpty else {
            return TimelineEntry(date: now, content: WidgetContent(headlines: [], freshness: .empty, fetchedAt: cached?.fetchedAt))
        }
        return TimelineEntry(date: now, content: WidgetContent(headlines: headlines, freshness: .cached,
                                                               fetchedAt: cached.fetchedAt))
    }

    public func timeline(now: Date, consecutiveFailures: Int) async -> TimelineResult {
        let report = await refresher.reloadReport(now: now, warn: warn)
        return layout.afterReload(report, now: now, consecutiveFailures: consecutiveFailures, muted: muted(now))
    }

    public func snapshotTimeline(_ snapshot: TimelineEntry, reloadAt: Date) -> Timeline {
        layout.snapshotTimeline(snapshot, reloadAt: reloadAt)
    }

    private func muted(_ now: Date) -> MutedSources {
        (mutedFile?.load(now: now, warn: warn) ?? MutedSources()).with(words: muteWords)
    }
}

