import FoundationEssentials
import HeadlinesCore

/// What every bar copy runs, host or not: it follows the host's published timeline (inotify on
/// the runtime folder) and the shared rotation offset, and calls `render` with the state on
/// display whenever it changes: a new publication, `next`/`prev`, or the next entry's date. So all
/// copies show the same entry at the same time, and only the host touches the network.
@GLibActor
public final class TimelineFollower {
    private let paths: XDGPaths
    private let render: (BarState) -> Void
    private var monitor: DirectoryMonitor?
    private var timer: UInt32 = 0
    private var published: PublishedTimeline?
    private var offset = 0
    private var lastState: BarState?

    public init(paths: XDGPaths, render: @escaping (BarState) -> Void) {
        self.paths = paths
        self.render = render
    }

    public func start() {
        // The host writes both files atomically: a rename into place.
        monitor = DirectoryMonitor(path: paths.runtimeHeadlinesDir, events: .renamedIn) { [weak self] name in
            guard name == "timeline.json" || name == "offset.json" else { return }
            Task { @GLibActor in self?.reread() }
        }
        reread()
    }

    /// Reads the published timeline and the offset again, then shows what is due now.
    public func reread() {
        published = PublishedTimelineStore(path: paths.publishedTimelineFile).load()
        offset = JSONStateFile(rotationOffsetAt: paths.rotationOffsetFile)
            .load(now: Date(), warn: { _ in })?.offset ?? 0
        update()
    }

    private func update() {
        let now = Date()
        let state: BarState
        if let published, let entry = published.timeline.entry(at: now) {
            state = BarState(entry: entry, offset: offset, budgetUsed: published.budgetUsed,
                             budgetLimit: published.budgetLimit)
        } else {
            // No host has published yet: show the cache until one does.
            let warn: (String) -> Void = { HostLog.warning($0) }
            let muted = JSONStateFile(mutedSourcesAt: paths.mutedFile).load(now: now, warn: warn) ?? MutedSources()
            state = BarStateSource.state(published: nil, cache: HeadlineCache(path: paths.cacheFile).load(now: now, warn: warn),
                                         muted: muted, offset: offset,
                                         lastFailure: RefreshStatusStore(path: paths.statusFile).load(now: now, warn: warn).lastFailure,
                                         now: now)
        }
        if state != lastState {
            lastState = state
            render(state)
        }
        MainLoop.cancel(timer)
        timer = 0
        if let next = published?.timeline.nextEntryDate(after: now) {
            timer = MainLoop.after(max(0.001, next.timeIntervalSince(now))) {
                Task { @GLibActor [weak self] in self?.timer = 0; self?.update() }
            }
        }
    }
}
