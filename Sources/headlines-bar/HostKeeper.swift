import CBarSys
import Glibc

/// Keeps a host running for the bars: follows the lock holder's life through a pidfd and, when
/// there is none, starts the sibling `headlines-host --from-bar` (which exits at once when another
/// copy won the race, and dies with us through its parent-death signal). A host we started that
/// dies within 5 s with nobody else holding the lock is a failure: wait 1 min before the next
/// try, doubling up to 1 h, and say so in the bar meanwhile.
struct HostKeeper {
    /// `--config` and the other global options the bar was given: the host it starts gets them.
    let options: [String]
    /// Readable when the followed host exits; -1 when none is followed.
    private(set) var pidfd: Int32 = -1
    private var followed: pid_t = 0
    private var child: pid_t = 0
    private var childStartedMs: Int64 = 0
    private var backoffMs: Int64 = HostKeeper.firstBackoffMs
    /// While set, no host is started before this time (monotonic ms).
    private(set) var retryAtMs: Int64?
    /// Whether the bar should say the host stopped.
    private(set) var stopped = false

    init(options: [String] = []) { self.options = options }

    static let quickDeathMs: Int64 = 5_000
    static let firstBackoffMs: Int64 = 60_000
    static let maxBackoffMs: Int64 = 3_600_000

    /// poll(2)'s timeout: until the back-off ends, else forever.
    func pollTimeout(now: Int64) -> Int32 {
        guard let retryAtMs else { return -1 }
        return Int32(clamping: max(0, retryAtMs - now))
    }

    /// Follows the lock holder, or starts a host when nobody holds the lock. Returns true when
    /// what the bar should show (stopped or not) changed.
    mutating func ensure(_ folder: RuntimeFolder, now: Int64) -> Bool {
        let wasStopped = stopped
        guard pidfd < 0 else { return false }
        if let retryAtMs, now < retryAtMs { return false }
        retryAtMs = nil
        switch folder.lockHolder() {
        case .some(0):
            // Locked, PID not written yet: host.lock's close-after-write event brings us back.
            break
        case .some(let pid):
            let fd = cbs_pidfd_open(pid)
            if fd >= 0 {
                follow(pid, fd)
            } else {
                // A lock whose holder we cannot see (gone, another PID namespace): starting a host
                // would only lose to that lock again, so wait as after a failure.
                fail(now: now)
            }
        case .none:
            spawn(now: now)
        }
        return stopped != wasStopped
    }

    /// The followed host exited. Returns true when the bar's message changed.
    mutating func hostExited(_ folder: RuntimeFolder, now: Int64) -> Bool {
        let wasStopped = stopped
        let ours = followed == child && child > 0
        close(pidfd)
        pidfd = -1
        followed = 0
        if ours {
            _ = cbs_reap(child, nil)
            child = 0
            if now - childStartedMs < Self.quickDeathMs, folder.lockHolder() == nil {
                fail(now: now)
                return stopped != wasStopped
            }
            if now - childStartedMs >= Self.quickDeathMs { backoffMs = Self.firstBackoffMs }
        }
        return ensure(folder, now: now) || stopped != wasStopped
    }

    /// host.lock changed: someone else may have started a host while we waited.
    mutating func lockChanged(_ folder: RuntimeFolder, now: Int64) -> Bool {
        guard pidfd < 0 else { return false }
        let wasStopped = stopped
        if retryAtMs != nil, let pid = folder.lockHolder(), pid > 0 {
            retryAtMs = nil
            let fd = cbs_pidfd_open(pid)
            if fd >= 0 { follow(pid, fd) }
            return stopped != wasStopped
        }
        return ensure(folder, now: now)
    }

    private mutating func follow(_ pid: pid_t, _ fd: Int32) {
        pidfd = fd
        followed = pid
        stopped = false
    }

    private mutating func spawn(now: Int64) {
        guard let host = Sys.sibling("headlines-host") else {
            Sys.warn("cannot find headlines-host beside \(Sys.executableDirectory() ?? "this program")")
            fail(now: now)
            return
        }
        let pid = Sys.spawn(host, [host, "--from-bar"] + options)
        guard pid > 0 else {
            Sys.warn("cannot start \(host): errno \(errno)")
            fail(now: now)
            return
        }
        child = pid
        childStartedMs = now
        let fd = cbs_pidfd_open(pid)
        guard fd >= 0 else { fail(now: now); return }
        pidfd = fd
        followed = pid
        // Optimistic: the bar shows the host's line again; a quick death brings the message back.
        stopped = false
    }

    private mutating func fail(now: Int64) {
        stopped = true
        retryAtMs = now + backoffMs
        backoffMs = min(backoffMs * 2, Self.maxBackoffMs)
    }
}
