import CGLibNotify
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

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

    /// Starts a program in its own session, so that it outlives whoever started it, and the
    /// bar that killed its process group on exit takes nothing with it. False when it did not start.
    /// `environment` is the whole environment it gets (the CLI keeps API keys out of its own).
    public static func spawnDetached(_ argv: [String], environment: [String: String]) -> Bool {
        guard !argv.isEmpty else { return false }
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var cEnv: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer { cArgs.forEach { free($0) }; cEnv.forEach { free($0) } }
        var error: UnsafeMutablePointer<GError>?
        // Its log goes where ours does (a bar's log), but never to a terminal it would write into later.
        let quiet = isatty(2) != 0 ? G_SPAWN_STDERR_TO_DEV_NULL.rawValue : 0
        let flags = GSpawnFlags(rawValue: G_SPAWN_STDOUT_TO_DEV_NULL.rawValue | G_SPAWN_STDIN_FROM_DEV_NULL.rawValue | quiet)
        let started = g_spawn_async(nil, &cArgs, &cEnv, flags, { _ in _ = setsid() }, nil, nil, &error) != 0
        if !started {
            HostLog.warning("could not start \(argv[0]): \(error.map { String(cString: $0.pointee.message) } ?? "unknown error")")
            g_clear_error(&error)
        }
        return started
    }

    /// The path of the running `headlines` binary, for commands that call it back.
    public static var selfPath: String { Binaries.selfPath }
}
