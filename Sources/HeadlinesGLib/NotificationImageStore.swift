import CGLib
import FoundationEssentials
import Glibc
import HeadlinesCore

/// The scaled headline images notifications point at (`image-path`):
/// `$XDG_CACHE_HOME/headlines/images/<sha256 of the image URL>.png`, each written atomically,
/// mode 0600. Named by URL, so a headline whose image is already here costs no request, and
/// pruned to the images of the current cache (at most `maxFiles`), so the folder stays small.
/// Scaling and storing (gdk-pixbuf) is HeadlinesDesktop's `store(_:for:)`; this half only names
/// and finds files.
public struct NotificationImageStore: Sendable {
    public let folder: String
    /// The folder's cap whatever the cache holds (a page is at most 100 headlines).
    public var maxFiles = 100

    public init(paths: XDGPaths) { folder = paths.cacheDir + "/images" }
    public init(folder: String) { self.folder = folder }

    /// Where the image of `url` is (or would be) stored.
    public func path(for url: URL) -> String {
        guard let hex = g_compute_checksum_for_string(G_CHECKSUM_SHA256, url.absoluteString, -1) else {
            return folder + "/unnamed.png"
        }
        defer { g_free(hex) }
        return folder + "/" + String(cString: hex) + ".png"
    }

    /// The stored image of `url`, when there is one (a regular file, not a link).
    public func existing(for url: URL) -> String? {
        let path = path(for: url)
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return nil }
        return path
    }

    /// Headline id to stored image for each of `headlines` whose image (one of `wanted`) is here;
    /// nil when none is.
    public func storedPaths(of headlines: some Sequence<Headline>, wanted: [URL]) -> [String: String]? {
        var paths: [String: String] = [:]
        for headline in headlines {
            if let url = headline.imageURL, wanted.contains(url), let path = existing(for: url) { paths[headline.id] = path }
        }
        return paths.isEmpty ? nil : paths
    }

    /// Removes every stored image but those of `keep` (image URLs), then the oldest beyond
    /// `maxFiles`. Leftover temporaries of a killed writer go too. Returns how many it removed.
    @discardableResult
    public func prune(keeping keep: [URL]) -> Int {
        let wanted = Set(keep.map { PathText.lastComponent(of: path(for: $0)) })
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
        var removed = 0
        var kept: [(name: String, modified: Int)] = []
        for name in names {
            let full = folder + "/" + name
            var info = stat()
            guard lstat(full, &info) == 0 else { continue }
            if wanted.contains(name), (info.st_mode & S_IFMT) == S_IFREG {
                kept.append((name, info.st_mtim.tv_sec))
            } else if (info.st_mode & S_IFMT) != S_IFDIR, unlink(full) == 0 {
                removed += 1
            }
        }
        if kept.count > maxFiles {
            for old in kept.sorted(by: { $0.modified < $1.modified }).prefix(kept.count - maxFiles) where unlink(folder + "/" + old.name) == 0 {
                removed += 1
            }
        }
        return removed
    }
}
