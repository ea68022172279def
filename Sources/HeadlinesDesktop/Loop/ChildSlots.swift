/// How many fetch children run at once in the whole host process, whichever widget each one
/// reloads for: a host of many widgets would otherwise start one child per widget at the same
/// moment (each holds libcurl, libxml2 and a page of images). The rest wait their turn in the
/// order they asked.
///
/// Used on the loop thread only (ChildReloader is `@GLibActor`); a plain class, so tests drive
/// it without a loop.
public final class ChildSlots {
    /// Enough to keep a reload of one widget from waiting on a slow server of another, few enough
    /// that the children's memory stays that of a handful of reloads.
    public static let limit = 3
    @GLibActor public static let shared = ChildSlots(limit: limit)

    private let limit: Int
    private var inUse = 0
    /// Requests waiting for a slot, oldest first.
    private var waiting: [(owner: ObjectIdentifier, start: () -> Bool)] = []

    public init(limit: Int) { self.limit = max(1, limit) }

    /// Children running now.
    public var running: Int { inUse }
    /// Requests waiting for a slot.
    public var queued: Int { waiting.count }

    /// Runs `start` now when a slot is free, else when one frees, after every earlier request.
    /// `start` returns true when it started a child, which then holds the slot until `release`;
    /// false (it could not start one) frees the slot at once.
    public func request(for owner: AnyObject, _ start: @escaping () -> Bool) {
        waiting.append((ObjectIdentifier(owner), start))
        startWaiting()
    }

    /// A child that held a slot has exited.
    public func release() {
        inUse = max(0, inUse - 1)
        startWaiting()
    }

    /// Drops `owner`'s waiting requests (its host is stopping).
    public func withdraw(_ owner: AnyObject) {
        let id = ObjectIdentifier(owner)
        waiting.removeAll { $0.owner == id }
    }

    private func startWaiting() {
        while inUse < limit, !waiting.isEmpty {
            let next = waiting.removeFirst()
            inUse += 1
            if !next.start() { inUse -= 1 }
        }
    }
}
