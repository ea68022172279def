import Synchronization

/// State writes a process puts off until it has answered: the reload child writes its feeds'
/// validators (feeds.json) after it has printed its report, not in the middle of the fetch, where
/// their fsyncs would hold up the bar line a user waits for. A child killed before `flush` only
/// loses the validators: its next fetch of those feeds is unconditional.
public final class DeferredWrites: Sendable {
    private let pending = Mutex<[@Sendable () -> Void]>([])

    public init() {}

    public func add(_ write: @escaping @Sendable () -> Void) { pending.withLock { $0.append(write) } }

    /// Runs every write added so far, in order.
    public func flush() {
        let writes = pending.withLock { list -> [@Sendable () -> Void] in
            defer { list = [] }
            return list
        }
        for write in writes { write() }
    }
}
