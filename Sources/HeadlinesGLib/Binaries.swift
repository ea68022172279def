import FoundationEssentials
import HeadlinesCore
#if canImport(Glibc)
import Glibc
#endif

/// Where the other `headlines` programs are: beside this one (the build folder), then as an
/// install lays them out (PREFIX/bin for `headlines` and `headlines-bar`, PREFIX/libexec/headlines
/// for the host and the reload child, seen from either folder), else by name on PATH.
public enum Binaries {
    /// This program's own path (/proc/self/exe), for starting it or a sibling again.
    public static var selfPath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    public static func path(of name: String) -> String {
        let exe = selfPath
        let dir = PathText.directory(of: exe)
        let prefix = PathText.directory(of: dir)
        let fromLibexec = PathText.directory(of: prefix) + "/bin/" + name
        for candidate in [dir + "/" + name, prefix + "/libexec/headlines/" + name, fromLibexec]
            where access(candidate, X_OK) == 0 {
            return candidate
        }
        return name
    }
}
