import CBarSys
import Glibc

/// What the bar knows of the host: the holder of host.lock. A bar that finds none asks for one
/// once, at start, through `headlines start` (D-Bus activation where the service file is installed),
/// and does not supervise what it started: a host that dies later is started again by the next
/// command or click, or by the systemd unit's `Restart=`, and meanwhile the bar says it stopped.
struct HostWatch {
    /// `--config` and the other global options the bar was given, for `headlines start`.
    let options: [String]
    private var holderSeen = false
    /// Whether the bar should say the host stopped: one held the lock, and it has been released.
    private(set) var stopped = false
    /// The `headlines start` we ran, until it is reaped.
    private(set) var starter: pid_t = 0
    /// It ended and no host holds the lock: the bar says no host could be started.
    private(set) var startFailed = false

    init(options: [String] = []) { self.options = options }

    /// At start: follow the lock holder, or ask for a host when there is none.
    mutating func startIfNone(_ folder: RuntimeFolder) {
        if folder.lockHolder() != nil { holderSeen = true; return }
        starter = Sys.runCLI(options + ["start"])
        startFailed = starter <= 0
    }

    /// host.lock changed. Returns true when what the bar should show changed.
    mutating func lockChanged(_ folder: RuntimeFolder) -> Bool {
        let wasStopped = stopped
        switch folder.lock() {
        case .held:
            holderSeen = true
            stopped = false
            startFailed = false
        case .free: stopped = holderSeen
        // The folder was removed under a running host: nothing says it ended.
        case .absent: break
        }
        return stopped != wasStopped
    }

    /// Reaps `headlines start` once it has exited: whether it succeeded, nil while it runs.
    mutating func reap() -> Bool? {
        var ok: Int32 = 0
        guard starter > 0, cbs_reap(starter, &ok) > 0 else { return nil }
        starter = 0
        startFailed = ok == 0
        return !startFailed
    }
}
