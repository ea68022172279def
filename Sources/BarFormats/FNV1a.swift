/// FNV-1a, 64 bits, over UTF-8: a headline's key and the config's source digest. Both are kept on
/// disk (shown records, the budget ledger), so the function never changes.
public enum FNV1a {
    public static func hash(_ text: String) -> UInt64 {
        hash(bytes: text.utf8)
    }

    public static func hash<Bytes: Sequence<UInt8>>(bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
