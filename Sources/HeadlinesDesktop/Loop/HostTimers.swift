import CGLibNotify
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The host's one timer, a timerfd on CLOCK_BOOTTIME: it keeps counting through a suspend, so a
/// reload that fell due while the laptop slept fires as it wakes, with no periodic check (a GLib
/// timeout runs on CLOCK_MONOTONIC, which stops in suspend). Read on the loop via g_unix_fd_add.
final class BootTimer: Sendable {
    private let fd: Int32

    init?(onFire: @escaping @Sendable () -> Void) {
        fd = timerfd_create(CLOCK_BOOTTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard fd >= 0 else { return nil }
        TimerFD.watch(fd) { _ in onFire() }
    }

    /// Fires once, `seconds` from now (replacing any earlier arming).
    func arm(seconds: Double) {
        let s = max(0.001, min(seconds, 86400 * 7))
        var spec = itimerspec(it_interval: timespec(), it_value: TimerFD.timespec(s))
        timerfd_settime(fd, 0, &spec, nil)
    }
}

/// Fires when the wall clock is set (or the machine resumes, which the kernel treats alike): a
/// CLOCK_REALTIME timerfd armed far ahead with TFD_TIMER_CANCEL_ON_SET, whose read fails with
/// ECANCELED on a clock change. So the engine follows a stepped clock at once and otherwise
/// sleeps, instead of waking every minute to look.
final class WallClockWatch: Sendable {
    private let fd: Int32

    init?(onStep: @escaping @Sendable () -> Void) {
        fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard fd >= 0 else { return nil }
        let fd = self.fd
        TimerFD.watch(fd) { cancelled in
            WallClockWatch.arm(fd)
            if cancelled { onStep() }
        }
        Self.arm(fd)
    }

    private static func arm(_ fd: Int32) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var spec = itimerspec(it_interval: timespec(), it_value: timespec(tv_sec: now.tv_sec + 10 * 365 * 86400, tv_nsec: 0))
        timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET), &spec, nil)
    }
}

enum TimerFD {
    typealias Handler = @Sendable (_ cancelled: Bool) -> Void

    static func timespec(_ seconds: Double) -> Glibc.timespec {
        let whole = seconds.rounded(.down)
        return Glibc.timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
    }

    /// Calls `handler` on the loop each time `fd` expires (false) or is cancelled by a clock
    /// change (true), for the life of the process.
    static func watch(_ fd: Int32, _ handler: @escaping Handler) {
        let box = Unmanaged.passRetained(MainLoop.Box<Handler>(handler)).toOpaque()
        g_unix_fd_add_full(G_PRIORITY_DEFAULT, fd, G_IO_IN, { fd, _, data in
            var expirations: UInt64 = 0
            let n = read(fd, &expirations, 8)
            let cancelled = n < 0 && errno == ECANCELED
            if n == 8 || cancelled {
                Unmanaged<MainLoop.Box<Handler>>.fromOpaque(data!).takeUnretainedValue().value(cancelled)
            }
            return 1
        }, box, { data in Unmanaged<MainLoop.Box<Handler>>.fromOpaque(data!).release() })
    }
}
