import CGLib
import FoundationEssentials
import Glibc
import HeadlinesCore

/// The scaled headline images notifications point at (`image-path`):
/// `$XDG_CACHE_HOME/headlines/images/<sha256 of the image URL>.png`, each written atomically,
/// mode 0600. Named by URL, so a headline whose image is already here costs no request, and
/// pruned to the images of the current cache (at most `maxFiles`), so the folder stays small.
/// The folder is an `ImageFolder`: never followed through a link, and only files named as this
/// store names them are ever removed from it. Scaling and storing (gdk-pixbuf) is
/// HeadlinesDesktop's `store(_:for:in:until:)`; this half names, finds and prunes files.
public struct NotificationImageStore: Sendable {
    public let folder: String
    /// The folder's cap whatever the cache holds (a page is at most 100 headlines).
    public var maxFiles = 100
    /// The one deadline of a reload's image step, downloads and decoding together: images not
    /// stored by then are skipped (their headlines have none) and the report goes out.
    public static let stepSeconds: Double = 5

    public init(paths: XDGPaths) { folder = paths.cacheDir + "/images" }
    public init(folder: String) { self.folder = folder }

    /// The folder, opened (made when missing) for this reload; refused when it is a link.
    public func open() -> Result<ImageFolder, FolderRefusal> { ImageFolder.open(folder) }

    /// The file name of the image of `url`: 64 hex digits and ".png".
    public func name(for url: URL) -> String {
        guard let hex = g_compute_checksum_for_string(G_CHECKSUM_SHA256, url.absoluteString, -1) else {
            return "unnamed.png"
        }
        defer { g_free(hex) }
        return String(cString: hex) + ".png"
    }

    /// Where the image of `url` is (or would be) stored.
    public func path(for url: URL) -> String { folder + "/" + name(for: url) }

    /// True for the names `name(for:)` gives.
    static func isImageName(_ name: String) -> Bool {
        let utf8 = Array(name.utf8)
        return utf8.count == 68 && name.hasSuffix(".png")
            && utf8.prefix(64).allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// True when the image of `url` is stored in `folder` (a regular, non-empty file).
    public func holds(_ url: URL, in folder: ImageFolder) -> Bool {
        (folder.file(name(for: url))?.size ?? 0) > 0
    }

    /// Headline id to stored image for each of `headlines` whose image (one of `wanted`) is in
    /// `folder`; nil when none is.
    public func storedPaths(of headlines: some Sequence<Headline>, wanted: [URL], in folder: ImageFolder) -> [String: String]? {
        var paths: [String: String] = [:]
        for headline in headlines {
            if let url = headline.imageURL, wanted.contains(url), holds(url, in: folder) { paths[headline.id] = path(for: url) }
        }
        return paths.isEmpty ? nil : paths
    }

    /// Removes every stored image but those of `keep` (image URLs), then the oldest beyond
    /// `maxFiles`, and the temporaries a killed writer left. Whatever else is in the folder (a
    /// person's own files, folders, links) stays. Returns how many it removed.
    @discardableResult
    public func prune(keeping keep: [URL], in folder: ImageFolder) -> Int {
        let wanted = Set(keep.map(name(for:)))
        var removed = 0
        var kept: [(name: String, modified: Int)] = []
        for name in folder.names() {
            if Self.isImageName(name) {
                guard let file = folder.file(name) else { continue }
                if wanted.contains(name) { kept.append((name, file.modified)) } else if folder.remove(name) { removed += 1 }
            } else if let pid = ImageFolder.writer(ofTemporary: name, for: Self.isImageName),
                      pid == getpid() || (kill(pid, 0) != 0 && errno == ESRCH), folder.file(name) != nil, folder.remove(name) {
                removed += 1
            }
        }
        if kept.count > maxFiles {
            for old in kept.sorted(by: { $0.modified < $1.modified }).prefix(kept.count - maxFiles) where folder.remove(old.name) {
                removed += 1
            }
        }
        return removed
    }
}
