import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// execve with an argv and environment from Swift; returns only when it failed (errno set).
public enum Exec {
    public static func replace(with argv: [String], environment: [String: String]) {
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var cEnv: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        execve(argv[0], &cArgs, &cEnv)
        let saved = errno
        cArgs.forEach { free($0) }
        cEnv.forEach { free($0) }
        errno = saved
    }
}
