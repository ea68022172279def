import FoundationEssentials
import HeadlinesCore
#if canImport(Glibc)
import Glibc
#endif

/// Where the other `headlines` programs are: beside this one (the build folder, /usr/bin), then
/// in ../libexec/headlines (a packaged install), else by name on PATH.
public enum Binaries {
    /// This program's own path (/proc/self/exe), for starting it or a sibling again.
    public static var selfPath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    public static func path(of name: String) -> String {
        let exe = selfPath
        let dir = PathText.directory(of: exe)
        for candidate in [dir + "/" + name, PathText.directory(of: dir) + "/libexec/headlines/" + name]
            where access(candidate, X_OK) == 0 {
            return candidate
        }
        return name
    }
}
