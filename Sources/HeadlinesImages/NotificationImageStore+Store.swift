import FoundationEssentials
import HeadlinesCore
import HeadlinesGLib

extension NotificationImageStore {
    /// Scales `bytes` (giving up at `deadline`) and stores them for `url` in `folder`; the path,
    /// or nil when they are not an image we decode, the deadline came first, or the folder
    /// cannot be written.
    public func store(_ bytes: Data, for url: URL, in folder: ImageFolder, until deadline: ContinuousClock.Instant) -> String? {
        guard let png = ImageScaler.scaledPNG(bytes, until: deadline) else { return nil }
        do { try folder.write(png, as: name(for: url)) } catch { return nil }
        return path(for: url)
    }
}
