import FoundationEssentials
import HeadlinesCore
#if canImport(Glibc)
import Glibc
#endif

/// The marker `headlines refresh --widget NAME` leaves in that widget's runtime folder before it
/// signals the host, which serves every widget in one process (see `WidgetHost.refreshSignalled`).
public struct RefreshRequest {
    /// A marker older than this is left over from a refresh that found no host to act on it.
    static let lifetime: TimeInterval = 10
    let paths: XDGPaths

    public init(paths: XDGPaths) { self.paths = paths }

    public var ownFile: String { paths.refreshRequestFile }

    /// Leaves the marker (an empty private file; its time is what counts).
    public func leave() throws {
        try PosixFileSystem.runtimeFolder.writeAtomically(Data(), to: ownFile)
    }

    func isFresh(_ path: String) -> Bool {
        var st = stat()
        guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_uid == getuid() else { return false }
        let age = Date().timeIntervalSince1970 - TimeInterval(st.st_mtim.tv_sec)
        return age >= -1 && age <= Self.lifetime
    }

    /// True when another widget's folder holds a fresh marker: the signal was meant for it.
    func anotherIsFresh() -> Bool {
        guard let dir = opendir(paths.runtimeDir) else { return false }
        defer { closedir(dir) }
        let own = PathText.lastComponent(of: paths.runtimeHeadlinesDir)
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name == "headlines" || name.hasPrefix("headlines-widget-"), name != own else { continue }
            if isFresh(paths.runtimeDir + "/" + name + "/refresh-request") { return true }
        }
        return false
    }
}
