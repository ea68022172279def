import CGLib
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Starting another program from Swift: execve in place, or a run waited for.
public enum Exec {
    /// execve with an argv and environment; returns only when it failed (errno set).
    public static func replace(with argv: [String], environment: [String: String]) {
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var cEnv: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        execve(argv[0], &cArgs, &cEnv)
        let saved = errno
        cArgs.forEach { free($0) }
        cEnv.forEach { free($0) }
        errno = saved
    }

    /// Runs argv to its end with stdin and stdout on /dev/null (its stderr is ours); its wait
    /// status, or nil when it could not start.
    @discardableResult
    public static func runQuietly(_ argv: [String], environment: [String: String]) -> Int32? {
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var cEnv: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { cArgs.forEach { free($0) }; cEnv.forEach { free($0) } }
        var status: Int32 = 0
        var error: UnsafeMutablePointer<GError>?
        let flags = GSpawnFlags(rawValue: G_SPAWN_STDOUT_TO_DEV_NULL.rawValue | G_SPAWN_CLOEXEC_PIPES.rawValue)
        guard g_spawn_sync(nil, &cArgs, &cEnv, flags, nil, nil, nil, nil, &status, &error) != 0 else {
            g_clear_error(&error)
            return nil
        }
        return status
    }
}
