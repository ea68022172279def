import FoundationEssentials
import HeadlinesCore
#if canImport(Glibc)
import Glibc
#endif

/// Reads the two clocks `HostTime` needs; the only clock reader of the host.
public enum HostClock {
    /// The kernel's id of this boot: CLOCK_BOOTTIME readings compare only within one boot.
    private static let boot: String = {
        guard let data = try? PosixFileSystem().read("/proc/sys/kernel/random/boot_id", limit: 4096) else { return "unknown" }
        return String(decoding: data.prefix(64), as: UTF8.self).trimmed()
    }()

    public static func now() -> HostTime {
        var ts = timespec()
        clock_gettime(CLOCK_BOOTTIME, &ts)
        return HostTime(wall: Date(), monotonic: Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9, boot: boot)
    }
}
