import FoundationEssentials

/// One reading of the two clocks the host needs, taken by the driver (the engine reads none).
///
/// `wall` is what people and servers see; it can be stepped either way (NTP, a user, a bad RTC).
/// `monotonic` is seconds of CLOCK_BOOTTIME: it never steps and, unlike CLOCK_MONOTONIC, keeps
/// counting through a suspend, so "24 real hours" in the budget includes time asleep, as a
/// server's quota window does. It restarts at each boot, so readings are only compared when
/// `boot` (the kernel's boot_id) matches; across boots the wall clock is all there is.
public struct HostTime: Equatable, Sendable {
    public var wall: Date
    public var monotonic: TimeInterval
    public var boot: String

    public init(wall: Date, monotonic: TimeInterval, boot: String) {
        self.wall = wall
        self.monotonic = monotonic
        self.boot = boot
    }

    /// The same instant `seconds` later on both clocks (tests and the engine's own arithmetic).
    public func adding(_ seconds: TimeInterval) -> HostTime {
        HostTime(wall: wall.addingTimeInterval(seconds), monotonic: monotonic + seconds, boot: boot)
    }

    /// How far the wall clock moved against real time since `earlier`: 0 normally (suspend
    /// included, since CLOCK_BOOTTIME counts it), the size of the step when someone set the clock.
    public func wallStep(since earlier: HostTime) -> TimeInterval {
        guard boot == earlier.boot else { return 0 }
        return wall.timeIntervalSince(earlier.wall) - (monotonic - earlier.monotonic)
    }
}

/// Longest a server may make us wait (Retry-After, X-RateLimit-Reset): a day is plenty, and a
/// hostile or broken value must not stop reloads for years.
public enum ServerWait {
    public static let cap: TimeInterval = 24 * 3600

    public static func capped(_ date: Date?, now: Date) -> Date? {
        date.map { min($0, now.addingTimeInterval(cap)) }
    }
}
