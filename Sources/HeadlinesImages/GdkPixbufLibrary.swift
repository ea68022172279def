internal import CGdkPixbufOnUse
import HeadlinesGLib

/// gdk-pixbuf's calls, loaded the first time an image is scaled (CGdkPixbufOnUse says why not at
/// start-up). When the library does not load, images are skipped, said once in the log.
enum GdkPixbufLibrary {
    static let calls: HeadlinesGdkPixbuf? = {
        var why: UnsafePointer<CChar>?
        guard let loaded = headlines_gdk_pixbuf(&why) else {
            let reason = why.map { String(cString: $0) } ?? "no reason given"
            HostLog.warning("headlines cannot scale images without gdk-pixbuf (\(reason)), so notifications show none; install libgdk-pixbuf-2.0-0.")
            return nil
        }
        return loaded.pointee
    }()
}
