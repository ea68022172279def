import CGLibNotify
#if canImport(Glibc)
import Glibc
#endif

/// For a process that must not outlive the one that started it (a host a bar started, the
/// host's fetch child): SIGTERM when the parent dies (PR_SET_PDEATHSIG), and an immediate
/// SIGTERM when it already has.
public enum ParentWatch {
    public static func endWithParent() {
        let parent = getppid()
        _ = headlines_set_parent_death_signal(SIGTERM)
        if getppid() != parent || getppid() == 1 { kill(getpid(), SIGTERM) }
    }
}
