import CGLibNotify
import FoundationEssentials
import HeadlinesCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Reads i3bar click events from stdin on the loop (i3blocks 1.5 writes them to a persist block:
/// a JSON object per line with format=json, or the button number alone), and calls `onClick`
/// with the button. Stops at end of input.
public enum ClickReader {
    public static func start(_ onClick: @escaping @Sendable @GLibActor (Int) -> Void) {
        // The partial line between reads. Only the loop thread touches it (the fd callback runs
        // there), so the Mutex is never contended; it makes that a fact the compiler checks.
        let pending = Mutex(ClickLines())
        let handler: @Sendable () -> Bool = {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            guard n > 0 else { return false }
            for button in pending.withLock({ $0.append(buffer[0..<n]) }) {
                Task { @GLibActor in onClick(button) }
            }
            return true
        }
        let box = Unmanaged.passRetained(MainLoop.Box<@Sendable () -> Bool>(handler)).toOpaque()
        _ = g_unix_fd_add_full(G_PRIORITY_DEFAULT, 0, GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue), { _, _, data in
            Unmanaged<MainLoop.Box<@Sendable () -> Bool>>.fromOpaque(data!).takeUnretainedValue().value() ? 1 : 0
        }, box, { data in Unmanaged<MainLoop.Box<@Sendable () -> Bool>>.fromOpaque(data!).release() })
    }

    /// `{"button":1,...}` or `1`.
    static func button(in line: Data) -> Int? {
        let text = String(decoding: line, as: UTF8.self).trimmed()
        if let n = Int(text) { return n }
        struct Click: Decodable { var button: Int }
        return (try? StateJSONDecoder.headlines().decode(Click.self, from: Data(text.utf8)))?.button
    }
}

/// Splits stdin's bytes into lines and reads a button from each complete one; keeps the rest
/// (at most 64 KiB: a click line is tiny, so anything longer is noise and is dropped).
struct ClickLines {
    private var pending = Data()
    static let maxPending = 65536

    /// The buttons of the lines `bytes` completes, in order.
    mutating func append(_ bytes: some Sequence<UInt8>) -> [Int] {
        pending.append(contentsOf: bytes)
        var buttons: [Int] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = pending[pending.startIndex..<newline]
            if let button = ClickReader.button(in: line) { buttons.append(button) }
            pending.removeSubrange(pending.startIndex...newline)
        }
        if pending.count > Self.maxPending { pending.removeAll() }
        return buttons
    }
}
