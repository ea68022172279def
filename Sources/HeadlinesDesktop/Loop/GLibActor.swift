import CGLibNotify

/// The actor of everything that runs on the GLib main loop. Its executor hands each job to
/// `g_idle_add_full`, so `async` code isolated to it resumes on the loop thread after an `await`
/// (the Dispatch main queue is never drained while `g_main_loop_run` owns the main thread).
/// Not `g_main_context_invoke_full`: that runs a job inline when the caller owns the context,
/// which would break the actor's one-job-at-a-time guarantee.
@globalActor
public actor GLibActor {
    public static let shared = GLibActor()
    private static let executor = GLibExecutor()
    public nonisolated var unownedExecutor: UnownedSerialExecutor { Self.executor.asUnownedSerialExecutor() }
}

final class GLibExecutor: SerialExecutor {
    private final class JobBox {
        let job: UnownedJob
        let executor: GLibExecutor
        init(_ job: UnownedJob, _ executor: GLibExecutor) { self.job = job; self.executor = executor }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let box = Unmanaged.passRetained(JobBox(UnownedJob(job), self)).toOpaque()
        // The callback runs exactly once (it returns G_SOURCE_REMOVE) and takes the box back.
        g_idle_add_full(G_PRIORITY_DEFAULT, { data in
            let box = Unmanaged<JobBox>.fromOpaque(data!).takeRetainedValue()
            box.job.runSynchronously(on: box.executor.asUnownedSerialExecutor())
            return 0
        }, box, nil)
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

    func checkIsolated() {
        precondition(g_main_context_is_owner(g_main_context_default()) != 0, "not on the GLib main loop thread")
    }
}

extension MainLoop {
    /// Runs `body` at once from a GLib callback (a C function pointer, so not isolated to the
    /// actor by type), which GLib calls on the loop thread: the actor's own thread. Checked.
    static func assumeOnLoop(_ body: @GLibActor () -> Void) {
        precondition(g_main_context_is_owner(g_main_context_default()) != 0, "not on the GLib main loop thread")
        withoutActuallyEscaping(body) { isolated in
            unsafeBitCast(isolated, to: (() -> Void).self)()
        }
    }
}
