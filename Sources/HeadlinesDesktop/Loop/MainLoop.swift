import CGLibNotify
import FoundationEssentials
import Synchronization

/// Thin wrappers over the default GLib main context: the loop itself, one-shot timers and Unix
/// signal handlers. All run on the main thread; every closure handed to GLib is boxed, retained,
/// and released by GLib's destroy callback (never earlier, never leaked).
public enum MainLoop {
    /// The running loop's address (0: none), atomic because `quit` may come from any thread.
    private static let loop = Atomic<UInt>(0)

    /// Runs the loop on the calling (main) thread until `quit()`. `start` runs first, on the loop.
    public static func run(start: @escaping @Sendable @GLibActor () async -> Void) {
        let l = g_main_loop_new(nil, 0)
        loop.store(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(l))), ordering: .releasing)
        Task { @GLibActor in await start() }
        g_main_loop_run(l)
        g_main_loop_unref(l)
        loop.store(0, ordering: .releasing)
    }

    public static func quit() {
        if let l = OpaquePointer(bitPattern: loop.load(ordering: .acquiring)) { g_main_loop_quit(l) }
    }

    final class Box<T> { let value: T; init(_ value: T) { self.value = value } }
    typealias Callback = @Sendable () -> Void

    /// Calls `body` once after `seconds` (monotonic clock). Returns the source id for `cancel`.
    @discardableResult
    public static func after(_ seconds: Double, _ body: @escaping @Sendable () -> Void) -> UInt32 {
        let ms = UInt32(max(0, min(seconds, 86400 * 7)) * 1000)
        let box = Unmanaged.passRetained(Box<Callback>(body)).toOpaque()
        return g_timeout_add_full(G_PRIORITY_DEFAULT, ms, { data in
            Unmanaged<Box<Callback>>.fromOpaque(data!).takeUnretainedValue().value()
            return 0
        }, box, { data in Unmanaged<Box<Callback>>.fromOpaque(data!).release() })
    }

    public static func cancel(_ source: UInt32) {
        if source != 0 { g_source_remove(source) }
    }

    /// Handles `signal` on the loop (g_unix_signal_add: no async-signal-safety traps) for as long
    /// as the process lives.
    public static func onSignal(_ signal: Int32, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box<Callback>(body)).toOpaque()
        g_unix_signal_add_full(G_PRIORITY_HIGH, signal, { data in
            Unmanaged<Box<Callback>>.fromOpaque(data!).takeUnretainedValue().value()
            return 1
        }, box, { data in Unmanaged<Box<Callback>>.fromOpaque(data!).release() })
    }
}
