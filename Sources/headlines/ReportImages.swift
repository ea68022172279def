import FoundationEssentials
import HeadlinesCore
import HeadlinesDesktop
import HeadlinesHTTP

/// The reload child's last step: the images of the page just saved, fetched (no key, bounded),
/// scaled and stored for the host's notifications. It runs after the cache is written and has its
/// own short deadline, so it can delay the report by at most `ImageDownloads.timeout`; an image
/// that fails only leaves its headline without one.
enum ReportImages {
    static func attach(to report: inout ReloadReport, context: AppContext) {
        guard context.config.notifyEnabled, context.config.notifyImages, report.failure == nil else { return }
        let store = NotificationImageStore(paths: context.paths)
        let page = report.headlines.prefix(max(1, context.config.pageSize))
        let wanted = ImageDownloads.pageImages(of: report.headlines, pageSize: context.config.pageSize)
        let missing = wanted.filter { store.existing(for: $0) == nil }
        for (url, bytes) in ImageDownloads(maxImages: page.count).fetch(missing) { _ = store.store(bytes, for: url) }
        // Every headline of the cache keeps its image; everything else goes.
        store.prune(keeping: report.headlines.compactMap(\.imageURL))
        report.images = store.storedPaths(of: page, wanted: wanted)
    }
}
