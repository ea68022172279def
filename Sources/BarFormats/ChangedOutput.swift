/// `headlines-bar json --changed-from HASH`, for widget hosts that read a command's output only
/// once the command exits (KDE Plasma 5's "executable" data engine): the command prints the
/// widget document once it is not the one the host already has, then exits. So one process waits
/// between two changes, and nothing polls on a timer.
/// What it prints is HASH's line (the name of this document, for the next run) and the document.
public enum ChangedOutput {
    /// The name of an output: FNV-1a over its bytes, 16 lowercase hex digits.
    public static func name(of output: [UInt8]) -> String {
        let hex = String(FNV1a.hash(bytes: output), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// HASH as given on the command line: 1 to 16 hex digits; nil for anything else. A widget host
    /// that has no document yet passes 0.
    public static func parse(_ text: String) -> UInt64? {
        // UInt64(_:radix:) refuses "" and more than 16 digits, but takes a sign.
        guard text.utf8.allSatisfy({ Self.isHexDigit($0) }) else { return nil }
        return UInt64(text, radix: 16)
    }

    /// What to print for `output` when the host has the output named `known`: its name's line and
    /// the output; nil while it is the one the host has.
    public static func framed(_ output: [UInt8], known: UInt64) -> [UInt8]? {
        guard FNV1a.hash(bytes: output) != known else { return nil }
        return Array((name(of: output) + "\n").utf8) + output
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
