import FoundationEssentials
import HeadlinesCore

/// Each feed's own schedule: which feeds a reload fetches, where it sends the request, and what
/// an answer changes in the feed's state (its next fetch, a permanent move, a 410).
extension FeedProvider {
    struct FeedOutcome {
        var headlines: [Headline]
        var etag: String?
        var lastModified: String?
        var period: FeedPeriod?
    }

    /// A reload timed for a feed's next fetch may start a moment before it (the host's timers
    /// count whole seconds); a feed due that soon is fetched now, not a whole interval later.
    static let dueSlack: TimeInterval = 2

    /// Whether a scheduled reload fetches the feed: never tried, or its next fetch has come; a
    /// feed that answered 410 Gone never.
    static func isDue(_ entry: FeedState?, now: Date) -> Bool {
        guard let entry else { return true }
        guard entry.goneAt == nil else { return false }
        return entry.nextFetch.map { $0 <= now.addingTimeInterval(dueSlack) } ?? true
    }

    /// The earliest next fetch of the feeds still read; nil when one of them is due at every
    /// reload (or already due), so the reload schedule alone decides.
    static func nextDue(of entries: [FeedState], now: Date) -> Date? {
        let read = entries.filter { $0.goneAt == nil }
        guard !read.isEmpty else { return nil }
        var earliest: Date?
        for entry in read {
            guard let next = entry.nextFetch, next > now else { return nil }
            earliest = min(earliest ?? next, next)
        }
        return earliest
    }

    /// A conditional GET when the feed's last answer gave validators and headlines to keep, to
    /// where a permanent redirect moved the feed if one did. The validators go back exactly as
    /// the server sent them: a weak ETag's `W/` and its quotes are part of it.
    static func request(_ feed: URL, previous: FeedState?) -> HTTPRequest {
        var headers = ["Accept": "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, */*;q=0.8"]
        if previous?.headlines.isEmpty == false {
            if let etag = previous?.etag { headers["If-None-Match"] = etag }
            if let modified = previous?.lastModified { headers["If-Modified-Since"] = modified }
        }
        return HTTPRequest(url: previous?.movedTo ?? feed, headers: headers)
    }

    /// What an answer (or its failure) tells about the feed beside its headlines: where it moved,
    /// whether it is gone, and when it is next fetched.
    func record(_ response: Result<HTTPResponse, NewsError>, outcome: FeedOutcome?, of feed: URL, in entry: inout FeedState,
                now: Date) {
        let answer = try? response.get()
        if let moved = answer?.permanentLocation, URLPolicy.isOpenable(moved) {
            entry.movedTo = moved == feed ? nil : moved
        }
        if answer?.status == 410 {
            entry.goneAt = now
        } else if answer != nil {
            entry.goneAt = nil
        }
        if let outcome { entry.period = outcome.period }
        let next = FeedSchedule.next(status: answer?.status, headers: answer?.headers ?? [:], period: entry.period,
                                     interval: intervals[feed.absoluteString], now: now)
        entry.nextFetch = next?.at
        entry.nextFetchReason = next?.reason.rawValue
    }

    /// The one sentence for a feed that answered 410 Gone: what it means and what to do.
    static func goneSentence(_ feed: URL) -> String {
        TerminalText.safe("The feed \(shown(feed)) answered 410 Gone: its publisher removed it, so reloads no longer fetch it; remove it from [source] feeds.")
    }
}
