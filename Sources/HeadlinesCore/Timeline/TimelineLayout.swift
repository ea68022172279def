import FoundationEssentials

/// A timeline plus what the reload did, so the host can update its ledger and notify.
public struct TimelineResult: Sendable {
    public var timeline: Timeline
    /// nil on success; the failure otherwise.
    public var failure: RefreshFailure?
    /// The headlines fetched (only on success), for notifications.
    public var fetched: [Headline]?
    /// Stored notification images by headline id (`ReloadReport.images`).
    public var images: [String: String]
    /// When the first feed is next due (`ReloadReport.nextDue`): no scheduled reload before it.
    public var nextDue: Date?

    public init(timeline: Timeline, failure: RefreshFailure?, fetched: [Headline]?, images: [String: String] = [:],
                nextDue: Date? = nil) {
        self.timeline = timeline
        self.failure = failure
        self.fetched = fetched
        self.images = images
        self.nextDue = nextDue
    }
}

/// What one reload did, as the reload child (`headlines-reload`) tells the host on its
/// stdout: small and flat (the headlines once), so the host lays out the timeline itself.
public struct ReloadReport: Codable, Sendable, Equatable {
    /// The cache after the reload: the new headlines on success, the kept ones on failure.
    public var headlines: [Headline]
    public var fetchedAt: Date?
    /// nil on success.
    public var failure: RefreshFailure?
    /// Feeds that failed while others answered.
    public var partialFailures: [String]
    /// Key-bearing requests really sent (redirect hops included), for the budget.
    public var requestsSent: Int
    /// Headline id to the path of its scaled image, for notifications; nil when none (and in
    /// reports from before images, which still decode).
    public var images: [String: String]?
    /// The earliest time any of the source's feeds is next due, each feed by what its publisher
    /// asked (max-age, ttl, Retry-After) or its own interval; nil when the source has no per-feed
    /// schedule (the news APIs). A scheduled reload before it would fetch nothing.
    public var nextDue: Date?
    /// A sync service's new sign-in token, for the host to hand the next child (in memory only:
    /// never logged or written to a file); nil when the child made no new sign-in.
    public var syncToken: String?
    /// Read marks the service took in this reload (queued ones sent first).
    public var marksSent: Int?

    public init(headlines: [Headline], fetchedAt: Date?, failure: RefreshFailure?, partialFailures: [String] = [],
                requestsSent: Int = 1) {
        self.headlines = headlines
        self.fetchedAt = fetchedAt
        self.failure = failure
        self.partialFailures = partialFailures
        self.requestsSent = requestsSent
    }
}

/// How the headlines widget lays out its timeline, written once for the host (from a fetch
/// child's report) and for in-process reloads: rotate through the list every `rotate` seconds,
/// reload `interval` after a success, sooner after a failure (`Backoff`).
public struct TimelineLayout: Sendable, Equatable {
    public var interval: TimeInterval
    public var rotate: TimeInterval
    /// Most entries one timeline holds, so a tiny rotate and a long interval stay bounded.
    public var maxEntries = 720
    /// How long rotation goes on past the reload date, so the bar keeps rotating while a reload
    /// is in flight (up to the request timeout); the reload's timeline replaces it anyway.
    public var rotationTail: TimeInterval = 0

    public init(interval: TimeInterval, rotate: TimeInterval, rotationTail: TimeInterval = 0) {
        self.interval = interval
        self.rotate = rotate
        self.rotationTail = rotationTail
    }

    /// The timeline a reload's report asks for at `now`, muted sources hidden.
    public func afterReload(_ report: ReloadReport, now: Date, consecutiveFailures: Int,
                            muted: MutedSources) -> TimelineResult {
        let shown = muted.filter(report.headlines)
        if let failure = report.failure {
            let content = WidgetContent(headlines: shown, freshness: shown.isEmpty ? .empty : .stale,
                                        fetchedAt: report.fetchedAt, error: failure.message)
            let retry = now.addingTimeInterval(Backoff.delay(afterFailures: consecutiveFailures + 1, interval: interval))
            return TimelineResult(timeline: rotating(content, from: now, until: retry), failure: failure, fetched: nil,
                                  nextDue: report.nextDue)
        }
        let content = WidgetContent(headlines: shown, freshness: shown.isEmpty ? .empty : .fresh,
                                    fetchedAt: report.fetchedAt, partialFailures: report.partialFailures)
        return TimelineResult(timeline: rotating(content, from: now, until: now.addingTimeInterval(interval)),
                              failure: nil, fetched: report.headlines, images: report.images ?? [:], nextDue: report.nextDue)
    }

    /// What to show from a snapshot until the first reload at `reloadAt`.
    public func snapshotTimeline(_ snapshot: TimelineEntry, reloadAt: Date) -> Timeline {
        rotating(snapshot.content, from: snapshot.date, until: reloadAt)
    }

    /// Entries every `rotate` seconds through the list, from `content.index`, until `reload` (and
    /// `rotationTail` past it), with the policy `after(reload)`.
    public func rotating(_ content: WidgetContent, from now: Date, until reload: Date) -> Timeline {
        guard rotate > 0, content.headlines.count > 1 else {
            return Timeline(entries: [TimelineEntry(date: now, content: content)], policy: .after(reload))
        }
        var entries: [TimelineEntry] = []
        var date = now
        var index = content.index
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

extension ReloadReport: ShrinkableFileValue {
    /// A report is small (the headlines once); anything longer is not a report, whoever reads it
    /// (the host reads it from its child's stdout), and the child never writes a longer one.
    public static let maxBytes = 16 << 20

    /// Drops the oldest headlines, and their images with them.
    public func shrunk(dropping fraction: Double) -> ReloadReport? {
        guard let kept = headlines.droppingOldest(fraction) else { return nil }
        var copy = self
        copy.headlines = kept
        if let images {
            let ids = Set(kept.map(\.id))
            copy.images = images.filter { ids.contains($0.key) }
        }
        return copy
    }
}
