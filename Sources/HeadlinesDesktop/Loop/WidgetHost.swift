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
    /// `Config.sourceIdentity`: a change reloads at once.
    public var sourceIdentity: String

    public init(providerName: String, provider: TimelineProvider, scheduler: ReloadScheduler, interval: TimeInterval,
                tally: RequestTally? = nil, sourceIdentity: String = "") {
        self.tally = tally
        self.providerName = providerName
        self.provider = provider
        self.scheduler = scheduler
        self.interval = interval
        self.sourceIdentity = sourceIdentity
    }

    /// What the engine needs of it.
    public var configuration: HostConfiguration {
        let provider = self.provider
        return HostConfiguration(providerName: providerName, sourceIdentity: sourceIdentity, interval: interval,
                                 dailyBudget: scheduler.budget.dailyLimit,
                                 layout: { provider.snapshotTimeline($0, reloadAt: $1) })
    }
}

/// The thin driver around `HostEngine`, on the GLib main loop (GLibActor), one per session. It
/// turns GLib timers, signals, GNetworkMonitor and file monitors into engine events, each with
/// the clocks read once, and performs the engine's actions: the reload through the provider,
/// the ledger and published timeline on disk, notifications, ONE timer. The engine inside it is
/// the only mutable host state, and only the loop thread touches it.
@GLibActor
public final class WidgetHost {
    public typealias Configure = @Sendable () throws -> HostSetup

    private let paths: XDGPaths
    private let configure: Configure
    private let lock: HostLock
    private let publishedStore: PublishedTimelineStore
    private let ledgerStore: LedgerStore
    private var setup: HostSetup
    private var engine = HostEngine()
    private var timer: UInt32 = 0
    private var isHost = false
    private var ledgerSaveFailing = false
    private var networkWatcher: NetworkWatcher?
    private var monitors: [DirectoryMonitor] = []
    private let warn: @Sendable (String) -> Void = { HostLog.warning($0) }

    /// Called on the loop with each batch of fetched headlines (notifications hang here).
    public var onReload: ((TimelineResult) -> Void)?
    /// Called on the loop whenever the entry on display changes (bars hang here).
    public var onEntry: ((TimelineEntry, PublishedTimeline) -> Void)?

    public init(paths: XDGPaths, configure: @escaping Configure) throws {
        self.paths = paths
        self.configure = configure
        self.lock = HostLock(path: paths.hostLockFile)
        self.publishedStore = PublishedTimelineStore(path: paths.publishedTimelineFile)
        self.ledgerStore = LedgerStore(path: paths.ledgerFile)
        self.setup = try configure()
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
        let now = HostClock.now()
        isHost = true
        // A host killed mid-write leaves a temporary file beside the real one: sweep them.
        paths.removeStaleTemporaries()
        let start = HostStart(hostPID: getpid(), ledger: ledgerStore.load(now: now.wall, warn: warn),
                              cache: readCache(now.wall), muted: readMuted(now.wall), offset: readOffset(now.wall))
        send(.started(start, setup.configuration), at: now)
        networkWatcher = NetworkWatcher { Task { @GLibActor [weak self] in self?.send(.networkReturned) } }
        watchFiles()
    }

    private func installSignals() {
        MainLoop.onSignal(SIGTERM) { Task { @GLibActor [weak self] in self?.shutdown("SIGTERM") } }
        MainLoop.onSignal(SIGINT) { Task { @GLibActor [weak self] in self?.shutdown("SIGINT") } }
        MainLoop.onSignal(SIGUSR1) { Task { @GLibActor [weak self] in self?.explicitReload(reason: "refresh requested") } }
        MainLoop.onSignal(SIGHUP) { Task { @GLibActor [weak self] in self?.reconfigure() } }
    }

    /// Files other processes write: the cache (`headlines fetch`), muted.json (`mute`,
    /// `unmute`), offset.json (`next`, `prev`). Atomic writes arrive as a rename into place.
    private func watchFiles() {
        let cacheName = PathText.lastComponent(of: paths.cacheFile)
        let mutedName = PathText.lastComponent(of: paths.mutedFile)
        let offsetName = PathText.lastComponent(of: paths.rotationOffsetFile)
        let watched: [(String, (String) -> Void)] = [
            (PathText.directory(of: paths.cacheFile), { [weak self] name in
                guard name == cacheName, let self, let cache = self.readCache(Date()) else { return }
                self.send(.cacheChangedByAnotherProcess(cache))
            }),
            (PathText.directory(of: paths.mutedFile), { [weak self] name in
                guard name == mutedName else { return }
                self?.mutedChanged()
            }),
            (PathText.directory(of: paths.rotationOffsetFile), { [weak self] name in
                guard name == offsetName, let self else { return }
                self.send(.offsetChanged(self.readOffset(Date())))
            }),
        ]
        for (dir, onChange) in watched {
            if let monitor = DirectoryMonitor(path: dir, onChange: onChange) { monitors.append(monitor) }
        }
    }

    // MARK: - Events in, actions out

    /// `headlines refresh`, SIGUSR1: reload now if the budget allows, else say until when.
    public func explicitReload(reason: String) { send(.refreshAsked(reason: reason)) }

    /// muted.json changed (a notification's Mute, `headlines mute` / `unmute`): apply it now.
    public func mutedChanged() { send(.mutedChanged(readMuted(Date()))) }

    private func reconfigure() {
        do {
            setup = try configure()
            send(.configurationChanged(setup.configuration))
        } catch {
            HostLog.error("SIGHUP: keeping the old configuration: \(error)")
        }
    }

    private func send(_ event: HostEvent, at now: HostTime = HostClock.now()) {
        guard isHost else { return }
        for action in engine.handle(event, at: now) { perform(action) }
    }

    private func perform(_ action: HostAction) {
        switch action {
        case let .saveLedger(ledger): saveLedger(ledger)
        case let .startReload(failures): startReload(consecutiveFailures: failures)
        case let .publish(published):
            do { try publishedStore.store(published) } catch {
                HostLog.warning("Could not publish the timeline (\(error)); bars will read the cache instead.")
            }
        case let .showEntry(entry, published): onEntry?(entry, published)
        case let .notify(_, result): onReload?(result)
        case .resetBarOffset:
            try? StateFile<RotationOffset>(path: paths.rotationOffsetFile, what: "rotation offset").store(RotationOffset(offset: 0))
        case let .armTimer(_, seconds):
            MainLoop.cancel(timer)
            timer = MainLoop.after(max(0.001, seconds)) {
                Task { @GLibActor [weak self] in self?.timer = 0; self?.send(.timerFired) }
            }
        case let .log(level, line):
            switch level {
            case .info: HostLog.info(line)
            case .warning: HostLog.warning(line)
            case .error: HostLog.error(line)
            }
        }
    }

    /// The provider does the network and cache work off the loop; its answer comes back here.
    private func startReload(consecutiveFailures: Int) {
        let provider = setup.provider
        let tally = setup.tally
        let wall = Date()
        _ = tally?.take()
        Task { @GLibActor [weak self] in
            let result = await provider.timeline(now: wall, consecutiveFailures: consecutiveFailures)
            self?.send(.reloadFinished(result, requestsSent: tally?.take() ?? 1))
        }
    }

    /// One warning when saving starts failing, one line when it works again. The engine keeps
    /// the ledger in memory either way, so the budget holds while this process runs.
    private func saveLedger(_ ledger: RefreshLedger) {
        do {
            try ledgerStore.store(ledger)
            if ledgerSaveFailing { HostLog.warning("The refresh ledger can be saved again.") }
            ledgerSaveFailing = false
        } catch {
            if !ledgerSaveFailing {
                HostLog.warning("Could not save the refresh ledger (\(error)); keeping it in memory, so the budget holds while this process runs: free disk space or fix permissions.")
            }
            ledgerSaveFailing = true
        }
    }

    private func readCache(_ now: Date) -> CachedHeadlines? { HeadlineCache(path: paths.cacheFile).load(now: now, warn: warn) }
    private func readMuted(_ now: Date) -> MutedSources {
        StateFile<MutedSources>(path: paths.mutedFile, what: "muted-sources").load(now: now, warn: warn) ?? MutedSources()
    }
    private func readOffset(_ now: Date) -> Int {
        StateFile<RotationOffset>(path: paths.rotationOffsetFile, what: "rotation offset").load(now: now, warn: { _ in })?.offset ?? 0
    }

    private func shutdown(_ signal: String) {
        HostLog.info("\(signal): stopping")
        MainLoop.cancel(timer)
        MainLoop.quit()
    }
}
