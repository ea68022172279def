import FoundationEssentials
import HeadlinesCore

/// The reloader of a widget on the same source as another (`WidgetPlan`): that widget's fetch
/// fills the cache both share, so this one's "reload" reads it and sends no request. It answers
/// on the next loop turn, like a child would. The shared cache's later writes reach this widget
/// as a cache change by another process (the host's file watch), so it follows every fetch.
@GLibActor
final class CacheReloader: HostReloader {
    private let paths: XDGPaths
    private var pending: UInt32 = 0

    init(paths: XDGPaths) { self.paths = paths }

    func start(consecutiveFailures: Int, allFeeds: Bool, done: @escaping @GLibActor (ReloadReport) -> Void) {
        let paths = self.paths
        pending = MainLoop.after(0) { [weak self] in
            Task { @GLibActor in
                self?.pending = 0
                let cached = HeadlineCache(path: paths.cacheFile).load(now: Date(), warn: { HostLog.warning($0) })
                guard let cached else {
                    let sentence = "Widget \(paths.sourceWidget ?? "") fetches for this one and has fetched nothing yet."
                    done(ReloadReport(headlines: [], fetchedAt: nil,
                                      failure: RefreshFailure(error: .unreachable(detail: "not fetched yet"), message: sentence), requestsSent: 0))
                    return
                }
                done(ReloadReport(headlines: cached.headlines, fetchedAt: cached.fetchedAt, failure: nil, requestsSent: 0))
            }
        }
    }

    func cancel() {
        if pending != 0 { MainLoop.cancel(pending) }
        pending = 0
    }
}
