import CGLibNotify
import FoundationEssentials

/// Starts helper programs from an argv, never through a shell, detached from our stdio.
public enum ProcessLauncher {
    public static func spawn(_ argv: [String]) {
        guard !argv.isEmpty else { return }
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var error: UnsafeMutablePointer<GError>?
        let flags = GSpawnFlags(rawValue: G_SPAWN_SEARCH_PATH.rawValue | G_SPAWN_STDOUT_TO_DEV_NULL.rawValue)
        if g_spawn_async(nil, &cArgs, nil, flags, nil, nil, nil, &error) == 0 {
            let why = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            HostLog.warning("could not start \(argv[0]): \(why)")
        }
    }

    /// The path of the running `headlines` binary, for commands that call it back.
    public static var selfPath: String { Binaries.selfPath }
}
