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

    /// The one-shot timers armed and not yet fired or cancelled. A fired timer's source is gone
    /// (its callback returned G_SOURCE_REMOVE), and g_source_remove on it logs a GLib-CRITICAL, so
    /// the callback takes its id out before it runs the body and `cancel` removes only what is
    /// still here. Held across g_timeout_add_full, so a timer armed off the loop thread cannot
    /// fire before its id is recorded.
    private static let armed = Mutex<Set<UInt32>>([])

    /// Calls `body` once after `seconds` (monotonic clock). Returns the source id for `cancel`,
    /// which may be called after the timer fired (then it does nothing).
    @discardableResult
    public static func after(_ seconds: Double, _ body: @escaping @Sendable () -> Void) -> UInt32 {
        let ms = UInt32(max(0, min(seconds, 86400 * 7)) * 1000)
        return armed.withLock { ids in
            let box = Unmanaged.passRetained(TimerBox(body)).toOpaque()
            let id = g_timeout_add_full(G_PRIORITY_DEFAULT, ms, { data in
                let box = Unmanaged<TimerBox>.fromOpaque(data!).takeUnretainedValue()
                // Not armed any more: cancelled while this dispatch was already under way.
                if MainLoop.armed.withLock({ $0.remove(box.id) }) != nil { box.body() }
                return 0
            }, box, { data in Unmanaged<TimerBox>.fromOpaque(data!).release() })
            Unmanaged<TimerBox>.fromOpaque(box).takeUnretainedValue().id = id
            ids.insert(id)
            return id
        }
    }

    /// Stops a timer of `after` that has not fired yet; a fired one, an already cancelled one and
    /// 0 are ignored.
    public static func cancel(_ source: UInt32) {
        guard source != 0, armed.withLock({ $0.remove(source) }) != nil else { return }
        g_source_remove(source)
    }

    /// A timer's body and its source id (set once, before the loop can dispatch it).
    private final class TimerBox: @unchecked Sendable {
        let body: Callback
        var id: UInt32 = 0
        init(_ body: @escaping Callback) { self.body = body }
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
