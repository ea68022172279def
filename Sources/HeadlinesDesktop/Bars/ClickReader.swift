import CGLibNotify
import FoundationEssentials
import HeadlinesCore
#if canImport(Glibc)
import Glibc
#endif

/// Reads i3bar click events from stdin on the loop (i3blocks 1.5 writes them to a persist block:
/// a JSON object per line with format=json, or the button number alone), and calls `onClick`
/// with the button. Stops at end of input.
public enum ClickReader {
    nonisolated(unsafe) private static var pending = Data()

    public static func start(_ onClick: @escaping @Sendable @GLibActor (Int) -> Void) {
        let handler: @Sendable () -> Bool = {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            guard n > 0 else { return false }
            pending.append(contentsOf: buffer[0..<n])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[pending.startIndex..<newline]
                pending.removeSubrange(pending.startIndex...newline)
                if let button = button(in: line) { Task { @GLibActor in onClick(button) } }
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
        return (try? JSONDecoder().decode(Click.self, from: Data(text.utf8)))?.button
    }
}
