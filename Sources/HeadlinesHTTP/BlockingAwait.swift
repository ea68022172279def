import Dispatch
import Synchronization

/// Runs an async operation to completion from synchronous command code: the programs that link
/// the transport (`headlines-fetch`, the reload child `headlines-reload`) wait for it with this. Never in a
/// resident process: it runs the body on the global pool (the host does not link this module).
public func blockingAwait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    // Started on this thread (Task.immediate): the transport blocks rather than suspends, so a
    // fetch usually runs to its end right here and the process starts no global-pool thread.
    // Anything that does suspend resumes on the global pool, and the semaphore waits for it.
    Task.immediate { let value = await body(); box.value.withLock { $0 = value }; done.signal() }
    done.wait()
    return box.value.withLock { $0! }
}

/// Hands the result from the task's thread to the waiting one.
private final class ResultBox<T: Sendable>: Sendable { let value = Mutex<T?>(nil) }
