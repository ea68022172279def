internal import CGdkPixbufOnUse
import FoundationEssentials
import HeadlinesCore
import HeadlinesGLib

/// The widget document's thumbnails: a small square cut from the middle of a stored
/// notification image (`ImageScaler`'s PNG, at most 256 px a side, written by us), scaled to
/// `side` pixels.
public enum ThumbnailScaler {
    public static let side: Int32 = 64
    /// A stored image is a PNG of at most 256×256: anything larger is not one of ours.
    public static let maxInputBytes = 1 << 20

    public static func squarePNG(fromStoredPNG bytes: Data) -> Data? {
        guard bytes.count <= maxInputBytes, ImageScaler.loaderType(bytes) == "png", let gdk = GdkPixbufLibrary.calls,
              let loader = gdk.gdk_pixbuf_loader_new_with_type("png", nil) else { return nil }
        defer { gdk.g_object_unref(loader) }
        let written = bytes.withUnsafeBytes { raw -> Bool in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return false }
            return gdk.gdk_pixbuf_loader_write(loader, base, gsize(raw.count), nil) != 0
        }
        guard gdk.gdk_pixbuf_loader_close(loader, nil) != 0, written, let pixbuf = gdk.gdk_pixbuf_loader_get_pixbuf(loader) else { return nil }
        let (w, h) = (gdk.gdk_pixbuf_get_width(pixbuf), gdk.gdk_pixbuf_get_height(pixbuf))
        guard w > 0, h > 0, w <= ImageScaler.maxSide, h <= ImageScaler.maxSide else { return nil }
        let s = min(w, h)
        guard let square = gdk.gdk_pixbuf_new_subpixbuf(pixbuf, (w - s) / 2, (h - s) / 2, s, s) else { return nil }
        defer { gdk.g_object_unref(UnsafeMutableRawPointer(square)) }
        guard let scaled = gdk.gdk_pixbuf_scale_simple(square, side, side, GDK_INTERP_BILINEAR) else { return nil }
        defer { gdk.g_object_unref(UnsafeMutableRawPointer(scaled)) }
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        guard gdk.gdk_pixbuf_save_to_bufferv(scaled, &buffer, &size, "png", nil, nil, nil) != 0, let buffer else { return nil }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: Int(size))
    }
}

extension NotificationImageStore {
    /// Makes the thumbnail of each stored image in `images` (headline id to path) that has none
    /// yet, once, in `folder`; a thumbnail that cannot be made only leaves its item without one.
    public func makeThumbnails(of images: [String: String], in folder: ImageFolder) {
        for path in Set(images.values) {
            let name = PathText.lastComponent(of: path)
            guard (folder.file(name)?.size ?? 0) == 0,
                  let bytes = try? PosixFileSystem().read(path, limit: ThumbnailScaler.maxInputBytes),
                  let png = ThumbnailScaler.squarePNG(fromStoredPNG: bytes) else { continue }
            try? folder.write(png, as: name)
        }
    }
}
