import FoundationEssentials
import HeadlinesCore

extension NotificationImageStore {
    /// Scales `bytes` and stores them for `url`; the path, or nil when they are not an image we
    /// decode or the folder cannot be written.
    public func store(_ bytes: Data, for url: URL) -> String? {
        guard let png = ImageScaler.scaledPNG(bytes) else { return nil }
        let path = path(for: url)
        do { try PosixFileSystem().writeAtomically(png, to: path, mode: 0o600) } catch { return nil }
        return path
    }
}
