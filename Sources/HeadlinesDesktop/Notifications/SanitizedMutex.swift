import Synchronization

/// A `Mutex` whose ordering ThreadSanitizer can see. On Linux, `Mutex` hands a contended lock
/// over inside the kernel (FUTEX_LOCK_PI, in the uninstrumented stdlib), so `make tsan` misses
/// the order the lock gives and reports two critical sections of one lock as a race. A release
/// (leaving) and an acquire (entering) on an atomic of our own, inside the lock, show TSan that
/// order; outside TSan they cost two uncontended atomic operations per lock.
struct SanitizedMutex<Value>: ~Copyable, Sendable {
    private let mutex: Mutex<Value>
    private let order = Atomic<UInt>(0)

    init(_ value: sending Value) { mutex = Mutex(value) }

    borrowing func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
        try mutex.withLock { value in
            _ = order.load(ordering: .acquiring)
            defer { order.wrappingAdd(1, ordering: .releasing) }
            return try body(&value)
        }
    }
}
