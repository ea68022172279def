/// What a periodic block last printed, so that its click opens that headline and not the one the
/// host shows by the time the click comes: the key (`HeadlineKey`) in `shown/NAME` in the
/// widget's runtime folder, one small file per block, written atomically.
public enum ShownRecord {
    public static let folderName = "shown"
    /// A record is a key and a newline; anything longer is not one.
    public static let maxBytes = 64

    /// The file name for an i3blocks block, from its `BLOCK_NAME` and `BLOCK_INSTANCE`: letters,
    /// digits, `-` and `_` kept, anything else `_`, each part at most 32 bytes, so the name is
    /// always a plain file name of bounded length.
    public static func i3blocksName(blockName: String?, instance: String?) -> String {
        func part(_ s: String?) -> String {
            let bytes = Array((s ?? "").utf8.prefix(32)).map { b -> UInt8 in
                (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x2D || b == 0x5F ? b : 0x5F
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        return "i3blocks-" + part(blockName) + "-" + part(instance)
    }

    /// The key in a record's bytes, when they hold exactly one.
    public static func key(in bytes: [UInt8]) -> String? {
        var text = bytes
        if text.last == 0x0A { text.removeLast() }
        let key = String(decoding: text, as: UTF8.self)
        return HeadlineKey.isKey(key) ? key : nil
    }
}
