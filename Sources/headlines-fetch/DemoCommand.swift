import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesSources
import HeadlinesDesktop
import HeadlinesGLib

/// `headlines demo`: the widget host on the bundled fixtures. No key, no network: a demo transport
/// answers like APITube, with a new headline at every reload (every 5 s), and the real decoding
/// path, timeline, budget and publishing run as they do for `headlines run`. The entry on display
/// is printed as it changes. Its files live apart from the real ones.
enum DemoCommand {
    static func run(_ context: AppContext, duration: String?) -> Int32 {
        guard let dir = DemoData.directory(environment: context.environment),
              let top = try? PosixFileSystem().read(dir + "/apitube/top-headlines-fl.json", limit: ReadLimits.stateFile),
              let arrivals = try? PosixFileSystem().read(dir + "/demo/arrivals.json", limit: ReadLimits.stateFile),
              let transport = try? DemoTransport(topHeadlines: top, arrivals: arrivals, clock: { Date() }) else {
            Output.error("headlines: the demo data is missing; set HEADLINES_DATA_DIR to the Fixtures folder of the source tree.")
            return 1
        }
        var seconds: Double?
        if let duration {
            guard let d = HeadlinesCore.Duration.parse(duration), d > 0 else {
                Output.error("headlines: --duration '\(duration)' is not a duration; use e.g. 30s or 2m.")
                return 2
            }
            seconds = d
        }
        let paths = context.paths.demo
        // The keyless path, as a first run without a key uses: two feeds, RSS and Atom, merged.
        let provider = FeedProvider(feeds: [URL(string: "https://demo.invalid/world.rss")!,
                                            URL(string: "https://demo.invalid/wire.atom")!],
                                    store: FeedStateStore(path: paths.feedStateFile), transport: transport)
        let refresher = Refresher(provider: provider, cache: HeadlineCache(path: paths.cacheFile),
                                  statusStore: RefreshStatusStore(path: paths.statusFile))
        let setup = HostSetup(providerName: "demo feeds (bundled data)", layout: TimelineLayout(interval: 5, rotate: 2.5),
                              scheduler: ReloadScheduler(budget: RefreshBudget(dailyLimit: 86400)),
                              maxLength: context.config.maxLength)
        // Each demo starts afresh: a new host shows the full arrival sequence.
        for file in [paths.cacheFile, paths.ledgerFile, paths.statusFile, paths.seenFile, paths.feedStateFile] { try? FileManager.default.removeItem(atPath: file) }
        Output.print("headlines demo: bundled sample data, no key, no network; a new headline arrives every 5 s. Ctrl-C stops it.")
        signal(SIGPIPE, SIG_IGN)
        MainLoop.run {
            do {
                let host = try WidgetHost(paths: paths, reloader: DemoReloader(refresher: refresher), configure: { setup })
                host.onEntry = { entry, _ in
                    guard let h = entry.content.current else { return }
                    Output.print("[\(entry.content.freshness.rawValue)] \(TerminalText.safe(h.title)) · \(TerminalText.safe(h.source)) · \(RelativeAge.describe(h.publishedAt, now: Date()))")
                }
                host.onReload = { result in
                    guard let fetched = result.fetched else { return }
                    Output.print("-- reloaded: \(NumberText.counted(fetched.count, "headline")), newest: \(TerminalText.safe(fetched.first?.title ?? "none"))")
                }
                if context.config.notifyEnabled {
                    let notifications = HostNotifications(host: host, paths: paths, maxPerRefresh: context.config.maxPerRefresh,
                                                          maxPerHour: context.config.maxPerHour,
                                                          menuCommand: [Binaries.path(of: "headlines"), "menu"],
                                                          environment: context.environment)
                    let printer = host.onReload
                    host.onReload = { printer?($0); notifications.reloaded($0) }
                    HostRegistry.keep(notifications)
                }
                HostRegistry.keep(host)
                host.start()
                if let seconds { MainLoop.after(seconds) { MainLoop.quit() } }
            } catch {
                HostLog.error("\(error)")
                MainLoop.quit()
            }
        }
        return 0
    }
}

/// The demo reloads in its own process: its transport is a show whose state (which headline
/// "arrives" next) lives in memory, and the demo is a terminal program, not the resident widget,
/// so the thread pool an in-process `await` starts does not matter here.
@GLibActor
final class DemoReloader: HostReloader {
    private let refresher: Refresher
    init(refresher: Refresher) { self.refresher = refresher }

    func start(consecutiveFailures: Int, allFeeds: Bool, done: @escaping @GLibActor (ReloadReport) -> Void) {
        let refresher = self.refresher
        Task { @GLibActor in
            done(await refresher.reloadReport(now: Date(), warn: { HostLog.warning($0) }))
        }
    }

    func cancel() {}
}

extension XDGPaths {
    /// The demo's own corner of the cache, state and runtime folders.
    var demo: XDGPaths {
        var p = self
        p.cacheHome = cacheDir + "/demo"
        p.stateHome = stateDir + "/demo"
        p.runtimeDir = runtimeHeadlinesDir + "/demo"
        return p
    }
}

/// Where the bundled sample data is: $HEADLINES_DATA_DIR, the installed share folder next to the
/// binary, or the source tree the binary was built from.
enum DemoData {
    static func directory(environment: [String: String]) -> String? {
        var candidates: [String] = []
        if let dir = environment["HEADLINES_DATA_DIR"] { candidates.append(dir) }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("share/headlines/demo").path)
        }
        let sourceTree = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures").path
        candidates.append(sourceTree)
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/apitube/top-headlines-fl.json") }
    }
}
