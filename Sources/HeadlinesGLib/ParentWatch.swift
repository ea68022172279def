import CGLib
#if canImport(Glibc)
import Glibc
#endif

/// For a process that must not outlive the one that started it (a host a bar started, the
/// host's fetch child): SIGTERM when the parent dies (PR_SET_PDEATHSIG), and an immediate
/// SIGTERM when it already has.
public enum ParentWatch {
    public static func endWithParent() {
        let parent = getppid()
        signalOnParentDeath(SIGTERM)
        if getppid() != parent || getppid() == 1 { kill(getpid(), SIGTERM) }
    }

    /// PR_SET_PDEATHSIG: `signal` to this process when its parent dies (from now on).
    public static func signalOnParentDeath(_ signal: Int32) {
        _ = headlines_glib_set_parent_death_signal(signal)
    }
}
