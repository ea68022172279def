internal import CGdkPixbufOnUse
import FoundationEssentials

/// Turns a downloaded image into a small PNG with gdk-pixbuf, in a module of its own so that the
/// reload child, the one program that stores images, has it without the desktop layer; loaded
/// by the first image (GdkPixbufLibrary), not at start-up. Only PNG, JPEG, GIF and WebP are decoded,
/// recognised by their first bytes: never SVG or any other loader gdk-pixbuf may have, whatever
/// the server's Content-Type says.
public enum ImageScaler {
    /// The longest side of a stored image: notification servers show 32-128 px.
    public static let maxSide: Int32 = 256
    /// The most pixels decoded for one image: four times what a 1024×1024 picture has, so every
    /// usual photo or banner fits, while one image holds at most 16 MB while it is decoded. A
    /// JPEG is decoded at an eighth of its size or more (libjpeg scales while it decodes), so it
    /// counts that smaller size; PNG, GIF and WebP are decoded whole, then scaled. Larger images
    /// are refused as soon as their header says so (a small file can claim a huge canvas).
    public static let maxDecodedPixels = 4 * 1024 * 1024

    /// The gdk-pixbuf loader for `bytes`, by magic number; nil for anything else.
    static func loaderType(_ bytes: Data) -> String? {
        let b = [UInt8](bytes.prefix(12))
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpeg" }
        if b.starts(with: Array("GIF8".utf8)) { return "gif" }
        if b.count >= 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) { return "webp" }
        return nil
    }

    /// `width`×`height` fitted inside `maxSide`×`maxSide`, never enlarged.
    static func fitted(_ width: Int32, _ height: Int32) -> (Int32, Int32) {
        guard width > maxSide || height > maxSide else { return (width, height) }
        let scale = Double(maxSide) / Double(max(width, height))
        return (max(1, Int32((Double(width) * scale).rounded())), max(1, Int32((Double(height) * scale).rounded())))
    }

    /// How many pixels gdk-pixbuf decodes for a `width`×`height` image of loader `type` asked
    /// to come out at `fitted`: its JPEG loader picks the largest libjpeg scale (1/2, 1/4, 1/8)
    /// that still gives at least that size; every other loader decodes the whole canvas.
    static func decodedPixels(_ type: String, _ width: Int32, _ height: Int32, fitted: (Int32, Int32)) -> Int {
        guard type == "jpeg" else { return Int(width) * Int(height) }
        var denominator = 1
        while denominator < 8 {
            let next = denominator * 2
            let (w, h) = ((Int(width) + next - 1) / next, (Int(height) + next - 1) / next)
            if w < Int(fitted.0) || h < Int(fitted.1) { break }
            denominator = next
        }
        return ((Int(width) + denominator - 1) / denominator) * ((Int(height) + denominator - 1) / denominator)
    }

    /// What the loader's size-prepared handler learnt (on this thread, during `write`).
    private final class SizeCheck {
        let type: String
        var refused = false
        init(type: String) { self.type = type }
    }

    /// PNG bytes of `bytes` scaled to at most `maxSide` on each side, or nil when it is not an
    /// image we decode, is broken, would decode to more than `maxDecodedPixels`, or is not done
    /// by `deadline` (checked between small pieces of input, so one image overruns it by no
    /// more than one piece and the final scaling).
    public static func scaledPNG(_ bytes: Data, until deadline: ContinuousClock.Instant) -> Data? {
        guard let type = loaderType(bytes), let gdk = GdkPixbufLibrary.calls,
              let loader = gdk.gdk_pixbuf_loader_new_with_type(type, nil) else { return nil }
        defer { gdk.g_object_unref(loader) }
        let check = SizeCheck(type: type)
        // The loader asks for the size once the header is read: scale there (JPEG then decodes
        // at the smaller size), or refuse a canvas too large to decode at all.
        let prepared: @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { loader, w, h, data in
            let check = Unmanaged<SizeCheck>.fromOpaque(data!).takeUnretainedValue()
            let loader = loader?.assumingMemoryBound(to: GdkPixbufLoader.self)
            let (sw, sh) = ImageScaler.fitted(w, h)
            guard w > 0, h > 0, ImageScaler.decodedPixels(check.type, w, h, fitted: (sw, sh)) <= ImageScaler.maxDecodedPixels else {
                // A size of 0 makes the loader fail here, before it allocates (and clears) the
                // canvas: returning alone would let the PNG loader touch all of it first.
                check.refused = true
                GdkPixbufLibrary.calls?.gdk_pixbuf_loader_set_size(loader, 0, 0)
                return
            }
            if (sw, sh) != (w, h) { GdkPixbufLibrary.calls?.gdk_pixbuf_loader_set_size(loader, sw, sh) }
        }
        _ = gdk.g_signal_connect_data(UnsafeMutableRawPointer(loader), "size-prepared", unsafeBitCast(prepared, to: GCallback.self),
                              Unmanaged.passUnretained(check).toOpaque(), nil, GConnectFlags(0))
        // In small pieces, so a refused canvas stops the decode right after its header (a piece
        // of well-compressed PNG can expand to megabytes of rows), and a slow decode at the
        // deadline.
        var ok = true
        var offset = 0
        let chunk = 4 * 1024
        bytes.withUnsafeBytes { raw in
            let base = raw.bindMemory(to: UInt8.self).baseAddress
            while ok, !check.refused, offset < raw.count, let base {
                guard ContinuousClock.now < deadline else { ok = false; break }
                let n = min(chunk, raw.count - offset)
                ok = gdk.gdk_pixbuf_loader_write(loader, base + offset, gsize(n), nil) != 0
                offset += n
            }
        }
        let closed = gdk.gdk_pixbuf_loader_close(loader, nil) != 0
        guard ok, closed, ContinuousClock.now < deadline, !check.refused, let decoded = gdk.gdk_pixbuf_loader_get_pixbuf(loader),
              let oriented = gdk.gdk_pixbuf_apply_embedded_orientation(decoded) else { return nil }
        defer { gdk.g_object_unref(UnsafeMutableRawPointer(oriented)) }
        // Orientation can swap the sides, and a loader may ignore set_size: fit once more.
        var pixbuf = oriented
        let (w, h) = (gdk.gdk_pixbuf_get_width(oriented), gdk.gdk_pixbuf_get_height(oriented))
        let (sw, sh) = fitted(w, h)
        var scaled: OpaquePointer?
        if (sw, sh) != (w, h) {
            guard let s = gdk.gdk_pixbuf_scale_simple(oriented, sw, sh, GDK_INTERP_BILINEAR) else { return nil }
            scaled = s
            pixbuf = s
        }
        defer { if let scaled { gdk.g_object_unref(UnsafeMutableRawPointer(scaled)) } }
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        guard gdk.gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, "png", nil, nil, nil) != 0, let buffer else { return nil }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: Int(size))
    }
}
