import CGLibNotify
import Dispatch
import Synchronization

/// A thread with its own GMainContext and loop where every libnotify call happens. libnotify's
/// calls are synchronous D-Bus calls that can block for 25 s; here they block this thread, never
/// the host's loop. libnotify's D-Bus proxy is created on this thread, so its signals (clicks,
/// closes) are dispatched here too. Any thread may submit; the jobs run one at a time, in order,
/// on the worker. Its only mutable state (the queue) is behind a lock.
final class NotificationWorker: Sendable {
    private let context: MainContext
    /// `pending` counts the waiting jobs and the one running.
    private struct Queue { var waiting: [@Sendable () -> Void] = []; var pending = 0; var droppedWarned = false }
    private let queue = SanitizedMutex(Queue())
    /// More jobs than this waiting (a server that hangs) and new ones are dropped, with one warning.
    let maxPending = 32

    /// `name` is the thread's name in /proc and top: at most 15 bytes, the kernel's limit (GLib
    /// leaves a longer one unset, and the thread shows its parent's name).
    init(name: String) {
        let context = MainContext(g_main_context_new())
        self.context = context
        // A semaphore, not a continuation: awaiting one would hop to Swift's global pool, whose
        // first use starts libdispatch's worker threads for the life of the host.
        let ready = DispatchSemaphore(value: 0)
        BackgroundThread.start(name: name) {
            g_main_context_push_thread_default(context.pointer)
            let loop = g_main_loop_new(context.pointer, 0)
            ready.signal()
            g_main_loop_run(loop)
        }
        ready.wait()
    }

    /// Queues `body` on the worker and returns at once. Returns false when it was dropped.
    @discardableResult
    func submit(_ body: @escaping @Sendable () -> Void) -> Bool {
        let (accepted, warn) = queue.withLock { q -> (Bool, Bool) in
            guard q.pending < maxPending else {
                defer { q.droppedWarned = true }
                return (false, !q.droppedWarned)
            }
            q.pending += 1
            q.waiting.append(body)
            return (true, false)
        }
        guard accepted else {
            if warn { HostLog.warning("the notification server is not answering; dropping notifications until it does") }
            return false
        }
        // The job itself travels through the locked queue, which ThreadSanitizer sees; GLib's own
        // hand-over locks are futexes in an uninstrumented library, which it does not. Each invoke
        // runs the oldest waiting job; the worker goes to GLib retained and comes back in the
        // destroy notify.
        g_main_context_invoke_full(context.pointer, G_PRIORITY_DEFAULT, { data in
            Unmanaged<NotificationWorker>.fromOpaque(data!).takeUnretainedValue().runOldest()
            return 0
        }, Unmanaged.passRetained(self).toOpaque(), { data in Unmanaged<NotificationWorker>.fromOpaque(data!).release() })
        return true
    }

    private func runOldest() {
        let body = queue.withLock { q in q.waiting.removeFirst() }
        body()
        queue.withLock { q in
            q.pending -= 1
            if q.pending == 0 { q.droppedWarned = false }
        }
    }

    /// Runs `body` on the worker and waits for it (tests, shutdown).
    func sync(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        if submit({ body(); done.signal() }) { done.wait() }
    }
}

/// The worker's GMainContext. `@unchecked Sendable` because it is immutable: the pointer is set
/// once, before the worker thread starts, and never changed or freed (the worker lives as long as
/// the process); the GMainContext calls made through it from other threads
/// (`g_main_context_invoke_full`) are documented thread-safe by GLib.
private struct MainContext: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}
