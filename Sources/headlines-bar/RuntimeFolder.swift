import BarFormats
import CBarSys
import Glibc

/// `$XDG_RUNTIME_DIR/headlines` (or the CLI's fallback under the cache folder) and what the host
/// keeps there: `host.lock` and the ready-made bar lines in `bar/`. Ours or nothing: a folder
/// that is a symlink, belongs to someone else or lets the group or others in is refused.
struct RuntimeFolder {
    let parent: String
    /// `headlines`, or `headlines-widget-NAME` for a `[widget NAME]` (XDGPaths.runtimeHeadlinesDir).
    var name = "headlines"
    var path: String { parent + "/" + name }
    var barDir: String { path + "/bar" }
    var lockFile: String { path + "/host.lock" }
    var isWidget: Bool { name != "headlines" }

    /// The folder `RuntimeLayout` names, as the host and the CLI find it.
    static func fromEnvironment(widget: String? = nil) -> RuntimeFolder {
        let parent = RuntimeLayout.parent(runtimeDir: Sys.env("XDG_RUNTIME_DIR"), cacheHome: Sys.env("XDG_CACHE_HOME"),
                                          home: Sys.env("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? "/")
        return RuntimeFolder(parent: parent, name: RuntimeLayout.folderName(widget: widget))
    }

    static func isWidgetName(_ name: String) -> Bool { RuntimeLayout.isWidgetName(name) }

    /// The widget this folder is for, nil for the usual one.
    var widget: String? { isWidget ? String(name.dropFirst(RuntimeLayout.widgetPrefix.count)) : nil }

    /// The widgets the host of this (usual) folder serves, when it serves widget groups.
    func servedWidgets() -> [String]? {
        guard case .bytes(let bytes) = Sys.readOwnedFile(path + "/" + RuntimeLayout.servedWidgetsName, limit: 4096) else { return nil }
        let names = bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }.filter(RuntimeLayout.isWidgetName)
        return names.isEmpty ? nil : names
    }

    enum Check: Equatable { case ok, missing, notPrivate }

    /// A real directory owned by us with no group or other bits. `create` makes it 0700 when absent.
    func check(create: Bool) -> Check {
        if Sys.lstatOf(path) == nil {
            guard create else { return .missing }
            if cbs_mkdir_private(path) != 0 && errno != EEXIST { return .missing }
        }
        guard let st = Sys.lstatOf(path) else { return .missing }
        guard Self.isPrivateDirectory(st) else { return .notPrivate }
        // bar/ is the host's to create; when it exists it obeys the same rule.
        if let bar = Sys.lstatOf(barDir), !Self.isPrivateDirectory(bar) { return .notPrivate }
        return .ok
    }

    static func isPrivateDirectory(_ st: stat) -> Bool {
        Sys.isDirectory(st) && st.st_uid == getuid() && st.st_mode & 0o077 == 0
    }

    enum Lock: Equatable {
        case absent
        /// The file is there and nobody holds it: a host that ran has ended.
        case free
        /// The PID written in it ("PID role\n"; 0 when it cannot be read yet).
        case held(pid_t)
    }

    /// Who holds host.lock: nil when nobody does (the file is absent, or a shared lock is granted at
    /// once), else the PID written in it.
    func lockHolder() -> pid_t? {
        if case let .held(pid) = lock() { return pid }
        return nil
    }

    func lock() -> Lock {
        let fd = cbs_open_nofollow(lockFile)
        guard fd >= 0 else { return .absent }
        defer { close(fd) }
        if cbs_try_shared_lock(fd) == 0 {
            _ = cbs_unlock(fd)
            return .free
        }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return .held(0) }
        var pid: Int32 = 0
        for byte in buffer[0..<n] {
            guard byte >= 0x30 && byte <= 0x39 else { break }
            let (m, o1) = pid.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int32(byte - 0x30))
            if o1 || o2 { return .held(0) }
            pid = s
        }
        return .held(pid)
    }
}
