import CGLibNotify
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Writes a bar's lines to stdout with one write(2) each (i3blocks 1.4 reads one read() as one
/// line; a pipe gets each line at once, never buffered), and ends the process quietly, with status
/// 0, when the bar goes away: stdout breaks (EPIPE, or POLLERR on the pipe while idle) or the
/// parent dies (PR_SET_PDEATHSIG, and a parent check). Never an orphan that goes on fetching.
public enum BarOutput {
    /// Call once at start, on the loop thread, before the first write.
    public static func install(onGone: @escaping @Sendable () -> Void) {
        signal(SIGPIPE, SIG_IGN)
        let parent = getppid()
        ParentWatch.signalOnParentDeath(SIGTERM)
        // The parent may have died before prctl took effect.
        if getppid() != parent || getppid() == 1 { onGone() }
        let box = Unmanaged.passRetained(MainLoop.Box<@Sendable () -> Void>(onGone)).toOpaque()
        _ = g_unix_fd_add_full(G_PRIORITY_DEFAULT, 1, GIOCondition(rawValue: G_IO_ERR.rawValue | G_IO_HUP.rawValue), { _, _, data in
            Unmanaged<MainLoop.Box<@Sendable () -> Void>>.fromOpaque(data!).takeUnretainedValue().value()
            return 0
        }, box, { data in Unmanaged<MainLoop.Box<@Sendable () -> Void>>.fromOpaque(data!).release() })
    }

    /// Writes `line` (which ends in "\n") whole. Returns false when stdout is gone.
    @discardableResult
    public static func write(_ line: String) -> Bool {
        var bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(1, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }
}
