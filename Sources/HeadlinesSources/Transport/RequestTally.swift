import FoundationEssentials
import HeadlinesCore
import Synchronization

/// How many key-bearing requests a transport actually sent, redirect hops included. The budget
/// counts one attempt per reload before it starts; a same-origin redirect makes the API see (and
/// its quota count) more, so the reloader adds the difference to the ledger afterwards.
/// Shared between the transport (which counts) and the reloader (which takes the count).
public final class RequestTally: Sendable {
    private let keyed = Mutex(0)

    public init() {}

    /// One key-bearing request went out.
    public func countKeyedRequest() { keyed.withLock { $0 += 1 } }

    /// The count since the last call, and starts again from zero.
    public func take() -> Int { keyed.withLock { n in defer { n = 0 }; return n } }
}
