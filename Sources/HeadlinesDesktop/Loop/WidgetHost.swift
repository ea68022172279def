import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import BarFormats
import HeadlinesCore

/// What the host runs, rebuilt from the config at start and on SIGHUP.
public struct HostSetup: Sendable {
    public var providerName: String
    public var layout: TimelineLayout
    public var scheduler: ReloadScheduler
    /// `[bar] max-length`, for the published bar lines.
    public var maxLength: Int
    /// `Config.sourceIdentity`: a change reloads at once.
    public var sourceIdentity: String
    /// `[notify] keywords` and `mute-words`: bars mark and hide, notifications filter.
    public var alerts = KeywordAlerts()
    /// `[notify] quiet-hours`: notifications wait for their end.
    public var quietHours: QuietHours?
    /// The sync service account this widget reads (`SyncAccount.label`), nil for other sources:
    /// opening one of its headlines marks it read there.
    public var syncAccount: String?

    public init(providerName: String, layout: TimelineLayout, scheduler: ReloadScheduler, maxLength: Int = 80,
                sourceIdentity: String = "") {
        self.providerName = providerName
        self.layout = layout
        self.scheduler = scheduler
        self.maxLength = maxLength
        self.sourceIdentity = sourceIdentity
    }

    public var interval: TimeInterval { layout.interval }

    /// What the engine needs of it. The wall-clock check is a safety net only (an hour): the
    /// host's timers run on CLOCK_BOOTTIME and a timerfd reports wall-clock steps and resumes.
    public var configuration: HostConfiguration {
        let layout = self.layout
        var configuration = HostConfiguration(providerName: providerName, sourceIdentity: sourceIdentity,
                                              interval: layout.interval, dailyBudget: scheduler.budget.dailyLimit,
                                              layout: { layout.snapshotTimeline($0, reloadAt: $1) })
        configuration.wallClockCheck = 3600
        return configuration
    }
}

/// The thin driver around `HostEngine`, on the GLib main loop (GLibActor), one per session. It
/// turns GLib timers, signals, GNetworkMonitor and file monitors into engine events, each with
/// the clocks read once, and performs the engine's actions: the reload through the provider,
/// the ledger on disk, the bar lines, notifications, ONE timer. The engine inside it is
/// the only mutable host state, and only the loop thread touches it.
@GLibActor
public final class WidgetHost {
    public typealias Configure = @Sendable () throws -> HostSetup

    private let paths: XDGPaths
    private let configure: Configure
    private let reloader: HostReloader
    private let barLines: BarLinesPublisher
    /// The widget document's thumbnails by headline id, from the last reload's stored images.
    private var thumbnails: [String: String] = [:]
    /// A sync service's headlines opened here (`ReadMarks.read`), for the widget document's `read`.
    private var readIDs: Set<String> = []
    private var lock: HostLock
    /// The runtime folder's identity when we took the lock: a different one (or none) means it
    /// was removed under us, and we make it again.
    private var runtimeFolderID: RuntimeFolder.Identity?
    /// Non-zero when the host stopped because it could not run (its folder is not ours).
    public private(set) var exitStatus: Int32 = 0
    /// What the bars show now: the entry on display and the shared rotation offset.
    private var shownEntry: TimelineEntry?
    private var shownBudget: (used: Int, limit: Int) = (0, 0)
    private var barOffset = 0
    /// The engine's last timeline and schedule, for `GetStatus`.
    public private(set) var published: PublishedTimeline?
    private let ledgerStore: LedgerStore
    public private(set) var setup: HostSetup
    private var engine = HostEngine()
    /// The engine's one timer (CLOCK_BOOTTIME), the bar lines' text timer (ages), and the watch
    /// that wakes the engine when the wall clock is set: nothing wakes the host periodically.
    private var engineTimer: BootTimer?
    private var lineTimer: BootTimer?
    private var wallClockWatch: WallClockWatch?
    private var isHost = false
    private var ledgerSaveFailing = false
    private var networkWatcher: NetworkWatcher?
    private var monitors: [DirectoryMonitor] = []
    private let warn: @Sendable (String) -> Void = { HostLog.warning($0) }

    /// `[widget NAME]`'s name, which starts every log line of this widget's host: one process
    /// serves every widget and the lines must say whose they are.
    public var logLabel: String?

    /// Called on the loop with each batch of fetched headlines (notifications hang here).
    public var onReload: ((TimelineResult) -> Void)?
    /// The notifications held back (Do Not Disturb, quiet hours), for `GetStatus`; nil when
    /// this widget does not notify.
    public var heldNotifications: (() -> HeldCounts)?
    /// Called on the loop whenever the entry on display changes (bars hang here).
    public var onEntry: ((TimelineEntry, PublishedTimeline) -> Void)?
    /// Called on the loop after each reload with its result in words (the bus signals hang here).
    public var onReloadFinished: ((String) -> Void)?
    /// Called on the loop when the headline on display changes, with its index (the bus's EntryChanged).
    public var onShownIndex: ((Int) -> Void)?

    /// `setup`: what to run from the start (else `configure()` is asked); `configure` re-reads
    /// the config at SIGHUP and when its file changes.
    /// `alsoPublishIn`: a second bar folder for these lines, the default widget's for the bars
    /// started without `--widget` when the config has widget groups.
    public init(paths: XDGPaths, reloader: HostReloader, setup: HostSetup? = nil, alsoPublishIn: String? = nil,
                configure: @escaping Configure) throws {
        self.paths = paths
        self.configure = configure
        self.reloader = reloader
        self.barLines = BarLinesPublisher(paths: paths, folders: [paths.barLinesDir] + (alsoPublishIn.map { [$0] } ?? []))
        self.lock = HostLock(path: paths.hostLockFile)
        self.ledgerStore = LedgerStore(path: paths.ledgerFile)
        self.setup = try setup ?? configure()
    }

    /// Takes the host lock, installs the signal handlers and starts; when another host holds the
    /// lock (one without a session bus, where the bus name cannot decide), quits saying which.
    public func start() {
        installSignals()
        let acquired: Bool
        do { acquired = try lock.acquire() } catch {
            // The runtime folder or host.lock is not ours (another user's, a link): refuse, in
            // one sentence, rather than run beside whoever controls it.
            HostLog.error("\(error)")
            exitStatus = 1
            MainLoop.quit()
            return
        }
        if acquired {
            becomeHost()
        } else {
            let holder = HostLock.holder(path: lock.path).map { "pid \($0.pid)" } ?? "another process"
            HostLog.info("another host (\(holder)) is running; nothing to do")
            MainLoop.quit()
        }
    }

    private func becomeHost() {
        let now = HostClock.now()
        isHost = true
        Self.live.append(Weak(self))
        runtimeFolderID = RuntimeFolder.identity(paths.runtimeHeadlinesDir)
        let offset = readOffset(now.wall)
        barOffset = offset
        if let account = setup.syncAccount {
            let marks = ReadMarksStore(path: paths.readMarksFile).load(now: now.wall, warn: warn)
            if marks.account == account { readIDs = Set(marks.read) }
        }
        engineTimer = BootTimer { Task { @GLibActor [weak self] in self?.timerFired() } }
        lineTimer = BootTimer { Task { @GLibActor [weak self] in self?.publishBarLines() } }
        wallClockWatch = WallClockWatch { Task { @GLibActor [weak self] in self?.timerFired() } }
        // A host killed mid-write leaves a temporary file beside the real one: sweep them.
        paths.removeStaleTemporaries()
        let start = HostStart(hostPID: getpid(), ledger: ledgerStore.load(now: now.wall, warn: warn),
                              cache: readCache(now.wall), muted: readMuted(now.wall), offset: offset)
        send(.started(start, setup.configuration), at: now)
        networkWatcher = NetworkWatcher { Task { @GLibActor [weak self] in self?.send(.networkReturned) } }
        watchFiles()
    }

    private func installSignals() {
        MainLoop.onSignal(SIGTERM) { Task { @GLibActor [weak self] in self?.shutdown("SIGTERM") } }
        MainLoop.onSignal(SIGINT) { Task { @GLibActor [weak self] in self?.shutdown("SIGINT") } }
        MainLoop.onSignal(SIGHUP) { Task { @GLibActor [weak self] in self?.reconfigure() } }
        // The reload signal of earlier versions, still in users' scripts: a reload asked for,
        // within the budget, as `headlines refresh` asks (it used to kill the host).
        MainLoop.onSignal(SIGUSR1) { Task { @GLibActor [weak self] in self?.explicitReload(reason: "SIGUSR1") } }
    }

    /// The cache, which `headlines fetch` may fill (an atomic write arrives as a rename into
    /// place), and the runtime folder. muted.json and offset.json are the host's own: other
    /// processes change them through its bus methods (`BusService`), never behind its back.
    private func watchFiles() {
        let cacheName = PathText.lastComponent(of: paths.cacheFile)
        var watched: [(String, (String) -> Void)] = [
            (PathText.directory(of: paths.cacheFile), { [weak self] name in
                // Our own reload child writes the cache after its report: nothing to read again.
                guard name == cacheName, let self, !self.reloader.childMayBeWritingCache,
                      let cache = self.readCache(Date()) else { return }
                self.send(.cacheChangedByAnotherProcess(cache))
            }),
            (paths.runtimeHeadlinesDir, { [weak self] _ in self?.checkRuntimeFolder() }),
        ]
        // `rm -rf $XDG_RUNTIME_DIR/headlines` sends the folder's own watch nothing while we hold a
        // file in it open: its parent hears of the removal at once.
        let runtimeName = PathText.lastComponent(of: paths.runtimeHeadlinesDir)
        watched.append((paths.runtimeDir, { [weak self] name in
            if name == runtimeName { self?.checkRuntimeFolder() }
        }))
        for (dir, onChange) in watched {
            // Our files arrive only by rename; the runtime folder is watched for our folder's removal.
            let events: DirectoryMonitor.Events = dir == paths.runtimeDir ? [.removed, .renamedIn] : .renamedIn
            if let monitor = DirectoryMonitor(path: dir, events: events, onChange: onChange) { monitors.append(monitor) }
        }
    }

    // MARK: - Events in, actions out

    /// A reload asked for (the bus's Reload, a notification): now if the budget allows, else say until when.
    public func explicitReload(reason: String) { send(.refreshAsked(reason: reason)) }

    /// muted.json changed (a notification's Mute, the bus's Mute / Unmute): apply it now.
    public func mutedChanged() { send(.mutedChanged(readMuted(Date()))) }

    /// The hosts of this process: muted.json is shared by every widget, so a change to it applies
    /// to all of them at once.
    private static var live: [Weak] = []
    private final class Weak { weak var host: WidgetHost?; init(_ host: WidgetHost) { self.host = host } }
    public static func mutedChangedEverywhere() { live.compactMap(\.host).forEach { $0.mutedChanged() } }

    /// SIGHUP, or the config file changed (`ConfigFileWatch`): re-read it and apply it now. A
    /// config that does not load, or a file that is gone, keeps the current configuration.
    public func reconfigure(reason: String = "SIGHUP") {
        do {
            setup = try configure()
            send(.configurationChanged(setup.configuration, reason: reason))
            mutedChanged()
            publishBarLines()
        } catch {
            HostLog.error("\(reason): keeping the old configuration: \(error)")
        }
    }

    private func send(_ event: HostEvent, at now: HostTime = HostClock.now()) {
        guard isHost else { return }
        let actions = engine.handle(event, at: now)
        // Notifications last: showing one is a round trip to the notification server, and the
        // bar lines and published timeline of the same reload must not wait for its answer.
        for action in actions where !action.isNotify { perform(action) }
        for action in actions where action.isNotify { perform(action) }
    }

    private func perform(_ action: HostAction) {
        switch action {
        case let .saveLedger(ledger): saveLedger(ledger)
        case let .startReload(failures, allFeeds):
            startReload(consecutiveFailures: failures, allFeeds: allFeeds)
        case let .publish(published):
            self.published = published
        case let .showEntry(entry, published):
            shownEntry = entry
            shownBudget = (published.budgetUsed, published.budgetLimit)
            publishBarLines()
            onEntry?(entry, published)
            if let index = shown?.index { onShownIndex?(index) }
        case let .notify(_, result):
            onReload?(result)
            let thumbnails = NotificationImageStore.existingThumbnails(of: result.images)
            if thumbnails != self.thumbnails {
                self.thumbnails = thumbnails
                publishBarLines()
            }
        case .resetBarOffset:
            barOffset = 0
            try? JSONStateFile(rotationOffsetAt: paths.rotationOffsetFile).store(RotationOffset(offset: 0))
        case let .armTimer(_, seconds):
            engineTimer?.arm(seconds: seconds)
        case let .log(level, text):
            let line = logLabel.map { "[\($0)] " + text } ?? text
            switch level {
            case .info: HostLog.info(line)
            case .warning: HostLog.warning(line)
            case .error: HostLog.error(line)
            }
        }
    }

    /// The reload runs in a fetch child; its report comes back here, on the loop, and is laid
    /// out as a timeline with the same `TimelineLayout` an in-process reload uses.
    private func startReload(consecutiveFailures: Int, allFeeds: Bool) {
        let wall = Date()
        reloader.start(consecutiveFailures: consecutiveFailures, allFeeds: allFeeds) { [weak self] report in
            guard let self else { return }
            var report = report
            if report.failure != nil && report.headlines.isEmpty, let cached = self.readCache(wall) {
                // The child died before it could say what the cache holds: keep showing it.
                report.headlines = cached.headlines
                report.fetchedAt = cached.fetchedAt
            }
            let result = self.setup.layout.afterReload(report, now: wall, consecutiveFailures: consecutiveFailures,
                                                      muted: self.readMuted(wall))
            self.send(.reloadFinished(result, requestsSent: report.requestsSent))
            self.onReloadFinished?(report.failure.map { "failed: \($0.message)" }
                                   ?? "reloaded: " + NumberText.counted(report.headlines.count, "headline")
                                      + ReloadWords.failedFeeds(report.partialFailures))
        }
    }

    // MARK: - Bus methods (BusService): the host changes its own state files

    /// What the bars show now, or nil before the first entry.
    public var shown: BarState? {
        guard let entry = shownEntry else { return nil }
        return BarState(entry: entry, offset: barOffset, budgetUsed: shownBudget.used, budgetLimit: shownBudget.limit)
    }

    public var providerName: String { setup.providerName }
    public var isReloading: Bool { engine.reloading }

    /// Reload now within the budget: "started", "queued" (one is running), or "deferred" with
    /// why and until when.
    public func requestReload(reason: String) -> (result: String, deferredUntil: String) {
        let wasReloading = engine.reloading
        send(.refreshAsked(reason: reason))
        if let deferred = engine.deferred, !engine.reloading {
            return ("deferred", LocalTime.stamp(deferred.until) + " (" + deferred.by.phrase + ")")
        }
        return (wasReloading ? "queued" : "started", "")
    }

    /// Turns the bars by `step` headlines, saving the offset for the next host.
    public func rotate(by step: Int) throws {
        barOffset = StepCount.adding(barOffset, step)
        try JSONStateFile(rotationOffsetAt: paths.rotationOffsetFile).store(RotationOffset(offset: barOffset))
        send(.offsetChanged(barOffset))
        publishBarLines()
        if let index = shown?.index { onShownIndex?(index) }
    }

    /// Mutes or unmutes `source` in the muted.json every widget shares and applies it now in
    /// every widget. False: no change.
    public func setMuted(_ source: String, _ mute: Bool) throws -> Bool {
        let file = StateFile<MutedSources>(path: paths.mutedFile, what: "muted-sources")
        var muted = file.load(now: Date(), warn: warn) ?? MutedSources()
        if mute, let problem = muted.refusal(toMute: source) { throw BusError(problem) }
        guard mute ? muted.mute(source) : muted.unmute(source) else { return false }
        try file.store(muted)
        Self.mutedChangedEverywhere()
        return true
    }

    /// Marks `headline` read on the sync service this widget reads: queued durably first (so a
    /// mark made offline is sent at a later reload), then sent by a child of its own. Nothing for
    /// the other sources. False when the queue could not be written (said in the log).
    @discardableResult
    public func markRead(_ headline: Headline) -> Bool {
        guard let account = setup.syncAccount else { return false }
        do {
            try ReadMarksStore(path: paths.readMarksFile).update(now: Date(), warn: warn) { $0.queue(headline.id, account: account) }
        } catch {
            HostLog.warning("Could not queue the read mark of a headline (\(error)); it stays unread on the service: free disk space or fix the permissions of \(paths.readMarksFile).")
            return false
        }
        readIDs.insert(headline.id)
        publishBarLines()
        reloader.sendMarks()
        return true
    }

    /// The headline a bar's click names by its key (`HeadlineKey`, or its id): one of the
    /// timeline's, else one of the cache's (the bar may have shown it before the last reload).
    public func headline(key: String) -> Headline? {
        let matches: (Headline) -> Bool = { HeadlineKey.of(id: $0.id) == key || $0.id == key }
        if let found = published?.timeline.entries.lazy.flatMap(\.content.headlines).first(where: matches) { return found }
        return readCache(Date())?.headlines.first(where: matches)
    }

    private func timerFired() {
        checkRuntimeFolder()
        send(.timerFired)
    }

    /// Renders what the bars show now into the ready-made lines (`BarLinesPublisher`), and sleeps
    /// until their text would next change on its own (an age label, the "new" class).
    private func publishBarLines() {
        guard isHost, let entry = shownEntry else { return }
        let now = Date()
        var state = BarState(entry: entry, offset: barOffset, budgetUsed: shownBudget.used, budgetLimit: shownBudget.limit)
        state.keywords = setup.alerts.keywords
        barLines.publish(state, now: now, maxLength: setup.maxLength, updatedAt: entry.content.fetchedAt, thumbnails: thumbnails,
                         readIDs: readIDs)
        if let next = state.nextTextChange(now: now) { lineTimer?.arm(seconds: next.timeIntervalSince(now) + 0.01) }
    }

    /// `rm -rf $XDG_RUNTIME_DIR/headlines` under a running host: our lock is on a deleted file, so
    /// another host could start. Checked at every folder event (inotify tells us at once) and
    /// every engine timer, then
    /// event: make the folder again, take the lock on the new file, publish everything again.
    private func checkRuntimeFolder() {
        guard isHost else { return }
        if RuntimeFolder.identity(paths.runtimeHeadlinesDir) == runtimeFolderID, lock.holdsFileAtPath() { return }
        HostLog.warning("\(paths.runtimeHeadlinesDir) was removed or replaced; making it again")
        do {
            guard try lock.reacquireIfReplaced() else {
                HostLog.error("another host took over the recreated \(paths.runtimeHeadlinesDir); stopping")
                shutdown("lost lock")
                return
            }
        } catch {
            HostLog.error("\(error)")
            shutdown("runtime folder refused")
            return
        }
        runtimeFolderID = RuntimeFolder.identity(paths.runtimeHeadlinesDir)
        barLines.reset()
        send(.offsetChanged(0))
        barOffset = 0
        monitors = []
        watchFiles()
        send(.configurationChanged(setup.configuration, reason: "the runtime folder was made again"))
        publishBarLines()
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
        (StateFile<MutedSources>(path: paths.mutedFile, what: "muted-sources").load(now: now, warn: warn) ?? MutedSources())
            .with(words: setup.alerts.muteWords)
    }
    private func readOffset(_ now: Date) -> Int {
        StepCount.clamped(JSONStateFile(rotationOffsetAt: paths.rotationOffsetFile).load(now: now, warn: warn)?.offset ?? 0)
    }

    private func shutdown(_ signal: String) {
        HostLog.info("\(signal): stopping")
        reloader.cancel()
        // A reload child stopped mid-write leaves its temporary file: sweep it now, not at the next start.
        if isHost { paths.removeStaleTemporaries() }
        MainLoop.quit()
    }
}
