import FoundationEssentials

/// The host's brain: events with the time they happened in, actions out. It owns the ledger,
/// the timeline, the back-off, deferred and queued explicit reloads and the once-a-minute wall
/// check; it reads no clock, touches no file and knows no GLib, so the driver
/// (HeadlinesDesktop's WidgetHost) and the tests run exactly the same code, the tests under a
/// manual clock (in the manner of dunst's `queues_update(status, time)`).
public struct HostEngine: Sendable {
    public private(set) var configuration: HostConfiguration?
    public private(set) var ledger = RefreshLedger()
    public private(set) var timeline = Timeline(entries: [], policy: .never)
    public private(set) var reloading = false
    /// An explicit reload deferred by a limit: it happens when the limit allows.
    public private(set) var deferred: (until: Date, by: ReloadDecision.Limit)?
    private var queuedExplicit = false
    /// Someone asked for a reload (queued or deferred): the next reload fetches every feed.
    private var askedForAllFeeds = false
    private var reloadStarted: HostTime?
    /// The source the running reload asks (a SIGHUP may change the configuration meanwhile).
    private var reloadSource: String?
    private var hostPID: Int32 = 0
    /// Every headline of the current content, muted ones included, so unmuting shows them at once.
    private var all: [Headline] = []
    private var muted = MutedSources()
    private var offset = 0
    private var generation = 0
    private var lastReload: Date?
    private var lastResult: String?
    private var lastShownEntryDate: Date?
    private var lastSeen: HostTime?
    /// Set by what changes them during one event; `handle` then saves the ledger and publishes
    /// the timeline once each, at its end, after what the bars show.
    private var ledgerChanged = false
    private var timelineChanged = false
    /// A reload this event starts, with the failures before it and whether it fetches every
    /// feed; asked for after the ledger's save.
    private var reloadToStart: (failures: Int, allFeeds: Bool)?
    /// When the timer is armed for (wall clock), for tests and `wake` logs.
    public private(set) var timerAt: Date?

    public init() {}

    /// Handles one event at `now` and says what to do, in order.
    public mutating func handle(_ event: HostEvent, at now: HostTime) -> [HostAction] {
        var out: [HostAction] = []
        let ledgerBefore = ledger
        if case let .started(start, configuration) = event {
            begin(start, configuration, now: now, &out)
        } else {
            guard configuration != nil else { return [] }
            followClock(now, &out)
            switch event {
            case .started: break
            case .timerFired: break
            case let .reloadFinished(result, sent): finished(result, sent: sent, now: now, &out)
            case let .refreshAsked(reason): explicit(reason, allFeeds: true, now: now, &out)
            case .networkReturned:
                // The feeds that failed are still due; the others keep what their publishers asked.
                if ledger.lastOutcome == .failure {
                    explicit("network is back after a failed reload", allFeeds: false, now: now, &out)
                }
            case let .configurationChanged(next, reason): reconfigure(next, reason: reason, now: now, &out)
            case let .cacheChangedByAnotherProcess(cache): adopt(cache, now: now, &out)
            case let .mutedChanged(next): mute(next, now: now, &out)
            case let .offsetChanged(value): offset = value
            }
        }
        wake(now, &out)
        // The ledger before the published timeline, so that what the timeline shows is already on disk,
        // and before the reload it counts: a host that dies at any point never spends a request
        // that its ledger on disk does not hold. Only a ledger the event changed is written: a
        // reload that succeeds as the last one did leaves it as its start saved it.
        if ledgerChanged && ledger != ledgerBefore {
            out.append(.saveLedger(ledger))
            ledger.markSaved()
        }
        if let reload = reloadToStart { out.append(.startReload(consecutiveFailures: reload.failures, allFeeds: reload.allFeeds)) }
        reloadToStart = nil
        if timelineChanged { out.append(.publish(published(now))) }
        timelineChanged = false
        ledgerChanged = false
        return out
    }

    private var config: HostConfiguration { configuration! }

    // MARK: - Events

    private mutating func begin(_ start: HostStart, _ configuration: HostConfiguration, now: HostTime, _ out: inout [HostAction]) {
        self.configuration = configuration
        hostPID = start.hostPID
        ledger = start.ledger
        if let warning = ledger.normalize(at: now) { out.append(.log(.warning, warning)) }
        muted = start.muted
        offset = start.offset
        lastSeen = now
        all = start.cache?.headlines ?? []
        out.append(.log(.info, "host started (pid \(hostPID)), provider \(configuration.providerName), interval \(Duration.format(configuration.interval)), budget \(configuration.dailyBudget)/24h"))
        if let note = configuration.scheduler.budget.pacingNote(interval: configuration.interval) { out.append(.log(.info, note)) }
        // WidgetKit's snapshot: the cache at once; reload when due, so restarts cost no budget,
        // but at once when the cache came from another source.
        var due = HostPlanner.startupReloadDate(now: now.wall, ledger: ledger, cacheFetchedAt: start.cache?.fetchedAt,
                                                interval: configuration.interval)
        if let source = ledger.source, source != configuration.sourceIdentity {
            out.append(.log(.info, "the news source changed since the last reload: reloading now"))
            due = now.wall
        }
        timeline = layout(freshness: start.cache == nil ? .empty : .cached, fetchedAt: start.cache?.fetchedAt,
                          error: nil, now: now.wall, reloadAt: due)
        publish(now, &out)
    }

    private mutating func finished(_ result: TimelineResult, sent: Int, now: HostTime, _ out: inout [HostAction]) {
        guard reloading, let started = reloadStarted else { return }
        reloading = false
        reloadStarted = nil
        ledger.recordExtraRequests(sent - 1, at: started)
        let took = max(0, now.monotonic - started.monotonic)
        let ms = NumberText.fixed(took * 1000, 0) + " ms"
        if let failure = result.failure {
            let asked = failure.error.retryAfter
            ledger.recordFailure(retryAfter: asked, now: now.wall)
            if let asked, asked > now.wall.addingTimeInterval(ServerWait.cap) {
                out.append(.log(.warning, "the server asked to wait until \(LocalTime.stamp(asked)); waiting 24 hours at most"))
            }
            lastResult = failure.message
            out.append(.log(.warning, "reload failed in \(ms): \(failure.message)"))
        } else {
            ledger.recordSuccess()
            ledger.source = reloadSource ?? config.sourceIdentity
            let partial = result.timeline.entries.first?.content.partialFailures ?? []
            lastResult = ReloadWords.succeeded(headlines: result.fetched?.count ?? 0, partialFailures: partial)
            out.append(.log(.info, "reload ok in \(ms): \(NumberText.counted(result.fetched?.count ?? 0, "headline")) from \(config.providerName)"))
            if !partial.isEmpty { out.append(.log(.warning, lastResult!)) }
        }
        ledger.nextDue = result.nextDue
        ledgerChanged = true
        // The timeline was built from when the request started: re-anchor it to the answer, so a
        // slow request leaves neither the entries nor the retry in the past. Its first entry, the
        // answer, moves to exactly now: the driver read the layout's start a moment after the
        // engine's, on another clock, and a first entry even a hair in the future would cost a
        // timer that shows nothing new.
        let anchor = result.timeline.entries.first.map { now.wall.timeIntervalSince($0.date) } ?? took
        timeline = result.timeline.shifted(by: anchor)
        lastReload = started.wall
        lastShownEntryDate = nil
        if let fetched = result.fetched {
            if hasNew(fetched) { resetOffset(&out) }
            all = fetched
        }
        publish(now, &out)
        if let fetched = result.fetched { out.append(.notify(fetched, result)) }
        if let next = nextReload(now.wall) {
            let why = feedsDue.map { $0 >= next ? ", when the first feed is due" : "" } ?? ""
            out.append(.log(.info, "next reload at \(LocalTime.stamp(next))\(why) (\(remaining(now.wall)) of \(config.dailyBudget) left in 24 h)"))
        }
        if queuedExplicit {
            queuedExplicit = false
            explicit("queued refresh", allFeeds: false, now: now, &out)
        }
    }

    /// `headlines refresh`, the bus's Reload, the network returning, a change of source: now if the budget
    /// and any Retry-After allow it, else deferred until they do (and said so), whenever the
    /// feeds are next due. `allFeeds`: the reload that answers it, queued or deferred, fetches
    /// every feed, since someone asked for it now.
    private mutating func explicit(_ reason: String, allFeeds: Bool, now: HostTime, _ out: inout [HostAction]) {
        askedForAllFeeds = askedForAllFeeds || allFeeds
        switch config.scheduler.decide(now: now.wall, ledger: ledger) {
        case .now:
            if reloading {
                out.append(.log(.info, "\(reason): a reload is running; another follows it"))
                queuedExplicit = true
                return
            }
            out.append(.log(.info, "\(reason): reloading now"))
            startReload(now, &out)
        case let .deferred(until, by):
            out.append(.log(.info, "\(reason): deferred until \(LocalTime.stamp(until)) by \(by.phrase)"))
            deferred = (until, by)
            publish(now, &out)
        }
    }

    private mutating func reconfigure(_ next: HostConfiguration, reason: String, now: HostTime, _ out: inout [HostAction]) {
        let sourceChanged = next.sourceIdentity != config.sourceIdentity
        let pacingBefore = config.scheduler.budget.pacingNote(interval: config.interval)
        configuration = next
        out.append(.log(.info, "\(reason): configuration re-read; provider \(next.providerName), interval \(Duration.format(next.interval))"))
        if let note = next.scheduler.budget.pacingNote(interval: next.interval), note != pacingBefore { out.append(.log(.info, note)) }
        // Another source's feeds: none of the old one's due dates applies to them.
        if sourceChanged { explicit("the news source changed", allFeeds: true, now: now, &out) } else { publish(now, &out) }
    }

    /// Another process (`headlines fetch`) filled the cache: show it, notify it, reset the
    /// back-off (the source answers), schedule the next reload an interval after it.
    private mutating func adopt(_ cache: CachedHeadlines, now: HostTime, _ out: inout [HostAction]) {
        // Our own reload writes the cache too: that one is already shown.
        guard !reloading, abs(cache.fetchedAt.timeIntervalSince(currentFetchedAt ?? .distantPast)) > 0.01 else { return }
        out.append(.log(.info, "the cache was refreshed by another process: " + NumberText.counted(cache.headlines.count, "headline")))
        ledger.recordSuccess()
        ledger.source = config.sourceIdentity
        ledgerChanged = true
        if hasNew(cache.headlines) { resetOffset(&out) }
        all = cache.headlines
        deferred = nil
        let reloadAt = max(now.wall, cache.fetchedAt).addingTimeInterval(config.interval)
        timeline = layout(freshness: .fresh, fetchedAt: cache.fetchedAt, error: nil, now: now.wall, reloadAt: reloadAt)
        lastShownEntryDate = nil
        publish(now, &out)
        out.append(.notify(cache.headlines, TimelineResult(timeline: timeline, failure: nil, fetched: cache.headlines)))
    }

    private mutating func mute(_ next: MutedSources, now: HostTime, _ out: inout [HostAction]) {
        guard next != muted else { return }
        muted = next
        let current = timeline.entry(at: now.wall)?.content
        let freshness = current.map { $0.freshness == .empty ? Freshness.cached : $0.freshness } ?? .cached
        let reloadAt = timeline.requestedReloadDate ?? now.wall.addingTimeInterval(config.interval)
        timeline = layout(freshness: freshness, fetchedAt: current?.fetchedAt, error: current?.error, now: now.wall, reloadAt: reloadAt)
        lastShownEntryDate = nil
        publish(now, &out)
    }

    // MARK: - Time

    /// A wall clock stepped under a running host moves every wall date the engine holds by the
    /// same amount, so what was due in 10 real minutes stays due in 10 real minutes.
    private mutating func followClock(_ now: HostTime, _ out: inout [HostAction]) {
        defer { lastSeen = now }
        guard let last = lastSeen else { return }
        let step = now.wallStep(since: last)
        guard abs(step) > 2 else { return }
        out.append(.log(.warning, "the wall clock moved \(Duration.format(abs(step))) \(step > 0 ? "ahead" : "back"); the schedule and the budget keep real time"))
        timeline = timeline.shifted(by: step)
        if let d = deferred { deferred = (d.until.addingTimeInterval(step), d.by) }
        ledger.retryNotBefore = ledger.retryNotBefore?.addingTimeInterval(step)
        ledger.nextDue = ledger.nextDue?.addingTimeInterval(step)
        ledger.normalize(at: now)
        lastReload = lastReload?.addingTimeInterval(step)
        lastShownEntryDate = nil
    }

    /// Acts on whatever is due at `now`, then arms the one timer.
    private mutating func wake(_ now: HostTime, _ out: inout [HostAction]) {
        guard configuration != nil else { return }
        let turn = rotateOn(now.wall)
        if let entry = timeline.entry(at: now.wall), entry.date != lastShownEntryDate {
            lastShownEntryDate = entry.date
            out.append(.showEntry(entry, published(now)))
        }
        if !reloading, let due = nextReload(now.wall), due <= now.wall { startReload(now, &out) }
        var wakeAt = now.wall.addingTimeInterval(config.wallClockCheck)
        if let entry = timeline.nextEntryDate(after: now.wall) { wakeAt = min(wakeAt, entry) }
        if !reloading, let due = nextReload(now.wall) { wakeAt = min(wakeAt, due) }
        if let turn { wakeAt = min(wakeAt, turn) }
        wakeAt = max(wakeAt, now.wall.addingTimeInterval(0.001))
        timerAt = wakeAt
        out.append(.armTimer(at: wakeAt, seconds: wakeAt.timeIntervalSince(now.wall)))
    }

    /// The reload can go out later than the timeline rotates (the budget paces it, or a limit
    /// holds it back): the same headlines then rotate on, from the next one, until it does.
    /// Returns when the rotation turns next while the last entry is still on display.
    private mutating func rotateOn(_ now: Date) -> Date? {
        let entries = timeline.entries
        guard !reloading, entries.count >= 2, let last = entries.last, last.date <= now,
              let due = nextReload(now), due > now else { return nil }
        let step = last.date.timeIntervalSince(entries[entries.count - 2].date)
        guard step > 0 else { return nil }
        let turn = last.date.addingTimeInterval(step)
        guard turn <= now else { return turn }
        var content = last.content
        content.index = (content.index + 1) % max(1, content.headlines.count)
        timeline = config.layout(TimelineEntry(date: now, content: content), due)
        timelineChanged = true
        return nil
    }

    private mutating func startReload(_ now: HostTime, _ out: inout [HostAction]) {
        let failuresBefore = ledger.consecutiveFailures
        ledger.recordAttempt(at: now)
        ledgerChanged = true
        reloadToStart = (failuresBefore, askedForAllFeeds)
        askedForAllFeeds = false
        reloading = true
        reloadStarted = now
        reloadSource = config.sourceIdentity
        deferred = nil
    }

    /// The timeline's wish, put off until the first feed is due, or a deferred explicit request
    /// if sooner, within the limits.
    public func nextReload(_ now: Date) -> Date? {
        guard let configuration else { return nil }
        let scheduler = configuration.scheduler
        let requested = timeline.requestedReloadDate.map { max($0, feedsDue ?? $0) }
        let scheduled = scheduler.nextReload(now: now, ledger: ledger, requested: requested,
                                             interval: configuration.interval)
        let asked = scheduler.nextReload(now: now, ledger: ledger, requested: deferred?.until, interval: nil)
        return [scheduled, asked].compactMap { $0 }.min()
    }

    /// When the last reload's child said the first feed of this source is next due; nil when it
    /// did not say (the news APIs) or the source changed since.
    private var feedsDue: Date? {
        ledger.source == configuration?.sourceIdentity ? ledger.nextDue : nil
    }

    private func remaining(_ now: Date) -> Int { config.scheduler.budget.remaining(ledger, now: now) }

    // MARK: - Content

    private var currentFetchedAt: Date? { timeline.entries.compactMap(\.content.fetchedAt).max() }

    private func hasNew(_ fetched: [Headline]) -> Bool {
        let known = Set(all.map(\.id))
        return fetched.contains { !known.contains($0.id) }
    }

    private mutating func resetOffset(_ out: inout [HostAction]) {
        guard offset != 0 else { return }
        offset = 0
        out.append(.resetBarOffset)
    }

    /// What to show from `all` minus the muted sources until `reloadAt`, laid out by the provider.
    private func layout(freshness: Freshness, fetchedAt: Date?, error: String?, now: Date, reloadAt: Date) -> Timeline {
        let shown = muted.filter(all)
        let content = WidgetContent(headlines: shown, freshness: shown.isEmpty ? .empty : freshness,
                                    fetchedAt: fetchedAt, error: error)
        return config.layout(TimelineEntry(date: now, content: content), reloadAt)
    }

    private func published(_ now: HostTime) -> PublishedTimeline {
        PublishedTimeline(hostPID: hostPID, provider: config.providerName, generation: generation,
                          publishedAt: now.wall, timeline: timeline, nextReload: nextReload(now.wall),
                          lastReload: lastReload, lastResult: lastResult,
                          budgetUsed: config.dailyBudget - remaining(now.wall), budgetLimit: config.dailyBudget,
                          deferredUntil: deferred?.until, deferredBy: deferred?.by)
    }

    private mutating func publish(_ now: HostTime, _ out: inout [HostAction]) {
        generation += 1
        timelineChanged = true
    }
}
