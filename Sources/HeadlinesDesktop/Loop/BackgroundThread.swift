import CGLibNotify

/// A detached OS thread started with GLib's `g_thread_new` (Foundation's `Thread` is not in
/// FoundationEssentials). The closure box is retained for the thread's life and released by the
/// thread itself when `body` returns; the GThread reference is dropped at once, so the thread is
/// never joined.
enum BackgroundThread {
    private final class Box { let body: () -> Void; init(_ body: @escaping () -> Void) { self.body = body } }

    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let thread = g_thread_new(name, { data in
            let box = Unmanaged<Box>.fromOpaque(data!)
            box.takeUnretainedValue().body()
            box.release()
            return nil
        }, box)
        g_thread_unref(thread)
    }
}
