/// A headline's key in a click command (`headlines open --id KEY`): 16 lowercase hex digits of
/// the FNV-1a 64-bit hash of its stable id. The id itself (a URL, a provider's string) could hold
/// anything a shell or a bar's tag grammar reads; the key holds nothing but hex.
public enum HeadlineKey {
    public static func of(id: String) -> String {
        let hex = String(FNV1a.hash(id), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Exactly 16 lowercase hex digits.
    public static func isKey(_ s: String) -> Bool {
        s.utf8.count == 16 && s.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The click command for a headline: `headlines open --id KEY`, with `--widget NAME` for a
    /// named widget (letters, digits, `-`, `_`: nothing a shell or a tag reads).
    public static func openCommand(key: String, widget: String?) -> String {
        "headlines open --id " + key + (widget.map { " --widget " + $0 } ?? "")
    }
}
