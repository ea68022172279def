import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HeadlinesCore

/// What the host runs, rebuilt from the config at start and on SIGHUP.
public struct HostSetup: Sendable {
    public var providerName: String
    public var provider: TimelineProvider
    public var scheduler: ReloadScheduler
    public var interval: TimeInterval
    /// What the provider's transport really sent, so redirects count against the budget.
    public var tally: RequestTally?

    public init(providerName: String, provider: TimelineProvider, scheduler: ReloadScheduler, interval: TimeInterval,
                tally: RequestTally? = nil) {
        self.tally = tally
        self.providerName = providerName
        self.provider = provider
        self.scheduler = scheduler
        self.interval = interval
    }
}

/// The widget host: one per user session, on the GLib main loop. It holds the host lock, keeps a
/// timeline, arms ONE timer for the next deadline (an entry change, a reload, or the once-a-minute
/// wall-clock check that catches a suspend), reloads within the budget and publishes the timeline
/// for every other process. Runs entirely on `GLibActor` (the loop thread).
@GLibActor
public final class WidgetHost {
    public typealias Configure = @Sendable () throws -> HostSetup

    private let paths: XDGPaths
    private let configure: Configure
    private let lock: HostLock
    private let publishedStore: PublishedTimelineStore
    private var setup: HostSetup
    private var reloader: BudgetedReloader
    private var timeline: Timeline
    private var timer: UInt32 = 0
    private var reloading = false
    private var explicitPending = false
    private var generation = 0
    private var lastReload: Date?
    private var lastResult: String?
    private var lastShownEntryDate: Date?
    private var lastPublished: PublishedTimeline?
    /// An explicit reload the budget deferred: it happens when the budget allows.
    private var deferredExplicit: Date?
    private var networkWatcher: NetworkWatcher?
    /// Longest sleep between wall-clock checks: a reload due during a suspend happens within this
    /// long of waking, because GLib timers run on the monotonic clock, which stops while suspended.
    public var wallClockCheck: TimeInterval = 60

    /// Called on the loop with each reload's result (notifications hang here).
    public var onReload: ((TimelineResult) -> Void)?
    /// Called on the loop whenever the entry on display changes (bars hang here).
    public var onEntry: ((TimelineEntry, PublishedTimeline) -> Void)?

    public init(paths: XDGPaths, configure: @escaping Configure) throws {
        self.paths = paths
        self.configure = configure
        self.lock = HostLock(path: paths.hostLockFile)
        self.publishedStore = PublishedTimelineStore(path: paths.publishedTimelineFile)
        let setup = try configure()
        self.setup = setup
        let now = Date()
        self.reloader = BudgetedReloader(provider: setup.provider, scheduler: setup.scheduler,
                                         ledgerStore: LedgerStore(path: paths.ledgerFile), now: now,
                                         tally: setup.tally, warn: { HostLog.warning($0) })
        self.timeline = Timeline(entries: [setup.provider.placeholder()], policy: .never)
    }

    /// Takes the host lock (or stands by until it is free), installs the signal handlers and starts.
    public func start() {
        installSignals()
        if lock.tryAcquire() {
            becomeHost()
        } else {
            let holder = HostLock.holder(path: lock.path).map { "pid \($0)" } ?? "another process"
            HostLog.info("another host (\(holder)) is running; standing by to take over")
            lock.waitUntilAcquired { [weak self] in self?.becomeHost() }
        }
    }

    private func becomeHost() {
        let now = Date()
        // A host killed mid-write leaves a temporary file beside the real one: sweep them.
        paths.removeStaleTemporaries()
        HostLog.info("host started (pid \(getpid())), provider \(setup.providerName), interval \(Duration.format(setup.interval)), budget \(setup.scheduler.budget.dailyLimit)/24h")
        // WidgetKit's snapshot: show the cache at once; reload when it is due, not on every start,
        // so restarts cost no budget.
        let snapshot = setup.provider.snapshot(now: now)
        let due = HostPlanner.startupReloadDate(now: now, ledger: reloader.ledger,
                                                cacheFetchedAt: snapshot.content.fetchedAt, interval: setup.interval)
        timeline = setup.provider.snapshotTimeline(snapshot, reloadAt: due)
        networkWatcher = NetworkWatcher { Task { @GLibActor [weak self] in self?.networkReturned() } }
        publish(now: now)
        wake()
    }

    private var isHost: Bool { networkWatcher != nil }

    private func installSignals() {
        MainLoop.onSignal(SIGTERM) { Task { @GLibActor [weak self] in self?.shutdown("SIGTERM") } }
        MainLoop.onSignal(SIGINT) { Task { @GLibActor [weak self] in self?.shutdown("SIGINT") } }
        MainLoop.onSignal(SIGUSR1) { Task { @GLibActor [weak self] in self?.explicitReload(reason: "refresh requested") } }
        MainLoop.onSignal(SIGHUP) { Task { @GLibActor [weak self] in self?.reconfigure() } }
    }

    // MARK: - The one timer

    /// Looks at the clock, acts on whatever is due, and arms the timer for the next deadline.
    private func wake() {
        guard isHost else { return }
        let now = Date()
        if let entry = timeline.entry(at: now), entry.date != lastShownEntryDate {
            lastShownEntryDate = entry.date
            if let published = lastPublished { onEntry?(entry, published) }
        }
        let plan = HostPlanner.plan(now: now, timeline: timeline, nextReload: nextReload(now: now),
                                    reloading: reloading, wallClockCheck: wallClockCheck)
        if plan.reloadNow {
            reloading = true
            Task { await reload() }
            // Entries keep changing while the request is in flight.
            let during = HostPlanner.plan(now: now, timeline: timeline, nextReload: nil, reloading: true,
                                          wallClockCheck: wallClockCheck)
            arm(at: during.wakeAt, now: now)
        } else {
            arm(at: plan.wakeAt, now: now)
        }
    }

    /// The timeline's wish, or a deferred explicit request if that comes sooner.
    private func nextReload(now: Date) -> Date? {
        let requested = [timeline.requestedReloadDate, deferredExplicit].compactMap { $0 }.min()
        return reloader.nextReload(now: now, requested: requested)
    }

    private func arm(at deadline: Date, now: Date) {
        MainLoop.cancel(timer)
        timer = MainLoop.after(max(0.001, deadline.timeIntervalSince(now))) {
            Task { @GLibActor [weak self] in self?.timer = 0; self?.wake() }
        }
    }

    // MARK: - Reloads

    /// Runs one reload; the caller has set `reloading`.
    private func reload() async {
        deferredExplicit = nil
        let started = Date()
        let result = await reloader.reload(now: started)
        reloading = false
        if let result {
            timeline = result.timeline.shifted(by: max(0, Date().timeIntervalSince(started)))
            lastReload = started
            let took = NumberText.fixed(Date().timeIntervalSince(started) * 1000, 0) + " ms"
            if let failure = result.failure {
                lastResult = failure.message
                HostLog.warning("reload failed in \(took): \(failure.message)")
            } else {
                lastResult = "ok: \(result.fetched?.count ?? 0) headlines"
                HostLog.info("reload ok in \(took): \(result.fetched?.count ?? 0) headlines from \(setup.providerName)")
            }
            lastShownEntryDate = nil
            publish(now: Date())
            onReload?(result)
        }
        let now = Date()
        if let next = nextReload(now: now) {
            HostLog.info("next reload at \(ISO8601.format(next)) (\(reloader.remaining(now: now)) of \(setup.scheduler.budget.dailyLimit) left in 24 h)")
        }
        if explicitPending { explicitPending = false; explicitReload(reason: "queued refresh"); return }
        wake()
    }

    /// `headlines refresh`, SIGUSR1: reload now if the budget allows, else say when.
    public func explicitReload(reason: String) {
        guard isHost else { return }
        let now = Date()
        reloader.refreshLedger(now: now)
        switch reloader.explicitDecision(now: now) {
        case .now:
            guard !reloading else {
                HostLog.info("\(reason): a reload is running; another follows it")
                explicitPending = true
                return
            }
            HostLog.info("\(reason): reloading now")
            reloading = true
            Task { await reload() }
        case let .deferred(until):
            HostLog.info("\(reason): deferred until \(ISO8601.format(until)) by the daily budget or the server's Retry-After")
            deferredExplicit = until
            publish(now: now)
            wake()
        }
    }

    private func networkReturned() {
        guard reloader.ledger.lastOutcome == .failure else { return }
        explicitReload(reason: "network is back after a failed reload")
    }

    private func reconfigure() {
        do {
            let next = try configure()
            setup = next
            reloader = BudgetedReloader(provider: next.provider, scheduler: next.scheduler,
                                        ledgerStore: LedgerStore(path: paths.ledgerFile), now: Date(),
                                        tally: next.tally, warn: { HostLog.warning($0) })
            HostLog.info("SIGHUP: configuration re-read; provider \(next.providerName), interval \(Duration.format(next.interval))")
            let muted = StateFile<MutedSources>(path: paths.mutedFile, what: "muted-sources").load(now: Date(), warn: { HostLog.warning($0) })
            for source in muted?.sources ?? [] { hide(source: source) }
            wake()
        } catch {
            HostLog.error("SIGHUP: keeping the old configuration: \(error)")
        }
    }

    /// Drops a muted source from what is on display now; the next timelines filter it themselves.
    public func hide(source: String) {
        guard timeline.entries.contains(where: { $0.content.headlines.contains { MutedSources([source]).isMuted($0) } }) else { return }
        let muted = MutedSources([source])
        timeline.entries = timeline.entries.map { entry in
            var e = entry
            e.content.headlines = muted.filter(e.content.headlines)
            if e.content.headlines.isEmpty { e.content.freshness = .empty }
            return e
        }
        lastShownEntryDate = nil
        publish(now: Date())
        wake()
    }

    private func shutdown(_ signal: String) {
        HostLog.info("\(signal): stopping")
        MainLoop.cancel(timer)
        MainLoop.quit()
    }

    // MARK: - Publishing

    private func publish(now: Date) {
        generation += 1
        let published = PublishedTimeline(
            hostPID: getpid(), provider: setup.providerName, generation: generation, publishedAt: now,
            timeline: timeline, nextReload: nextReload(now: now), lastReload: lastReload, lastResult: lastResult,
            budgetUsed: setup.scheduler.budget.dailyLimit - reloader.remaining(now: now),
            budgetLimit: setup.scheduler.budget.dailyLimit)
        lastPublished = published
        do { try publishedStore.store(published) } catch {
            HostLog.warning("Could not publish the timeline (\(error)); bars will read the cache instead.")
        }
    }
}
