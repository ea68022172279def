import CBarSys
import Glibc

/// The inotify watches of a follower: bar/ for its file, the runtime folder for bar/ and
/// host.lock coming and going, and $XDG_RUNTIME_DIR for the runtime folder going and coming
/// back. The last one is always on: a folder removed under a live host stays pinned by the
/// host's open host.lock and sends no IN_DELETE_SELF (it costs a wake-up only when an entry of
/// $XDG_RUNTIME_DIR itself is created or removed, which is rare).
struct RuntimeWatches {
    private(set) var fd: Int32 = -1
    private var parentWd: Int32 = -1
    private var dirWd: Int32 = -1
    private var barWd: Int32 = -1

    /// Drops every watch and watches again what exists now; returns the folder's state, checked
    /// after the watches are in place so that no change falls between the two.
    mutating func rewatch(_ folder: RuntimeFolder, variant: BarVariant, create: Bool) -> RuntimeFolder.Check {
        if fd >= 0 { close(fd) }
        fd = cbs_inotify_init()
        dirWd = -1; barWd = -1
        if create { _ = folder.check(create: true) }
        parentWd = cbs_watch_parent_dir(fd, folder.parent)
        for _ in 0..<3 {
            dirWd = cbs_watch_runtime_dir(fd, folder.path)
            if dirWd < 0 {
                guard Sys.lstatOf(folder.path) != nil else { return .missing }
                // Something that is not a directory (a symlink, a file) is refused, and watched for
                // through the parent; else it appeared between the two calls: watch it.
                if folder.check(create: false) == .notPrivate { return .notPrivate }
                continue
            }
            let state = folder.check(create: false)
            if state == .ok { barWd = cbs_watch_bar_dir(fd, folder.barDir) }
            if state == .missing { _ = inotify_rm_watch(fd, dirWd); dirWd = -1; continue }
            return state
        }
        return .missing
    }

    /// Reads the queue; CBS_* flags.
    func drain(_ folder: RuntimeFolder, variant: BarVariant) -> Int32 {
        let flags = cbs_inotify_drain(fd, parentWd, dirWd, barWd, folder.name, variant.fileName)
        // A read error should never happen; treat it as "look at everything again".
        return flags < 0 ? Int32(CBS_LAYOUT_CHANGED) : flags
    }
}
