// With PosixFileSystem.swift, the only files in the core that talk to libc: durable writes need
// fsync and rename, which FoundationEssentials does not expose with the guarantees we want.
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call, with errno kept.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public var call: String
    public var path: String
    public var errno: Int32
    /// Public so that fakes of `StateFileSystem` can fail the way the real calls do.
    public init(call: String, path: String, errno: Int32) { self.call = call; self.path = path; self.errno = errno }
    public var description: String { "\(call) \(path): \(String(cString: strerror(errno)))" }
}

enum Platform {
    static func mkdirs(_ path: String, mode: mode_t = 0o700) throws {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, mode) != 0 && errno != EEXIST {
                throw SystemError(call: "mkdir", path: built, errno: errno)
            }
        }
    }

    /// Writes `data` to `path` durably (temporary file, fsync, rename, fsync folder), through the
    /// same code as every state file. For stores not yet on `JSONStateFile`.
    static func writeAtomically(_ data: Data, to path: String, mode: mode_t = 0o600) throws {
        try PosixFileSystem().writeAtomically(data, to: path, mode: UInt32(mode))
    }

    /// Moves a corrupt file out of the way, keeping it for a person to look at.
    static func setAside(_ path: String, suffix: String) -> String? {
        let target = path + ".corrupt-" + suffix
        return rename(path, target) == 0 ? target : nil
    }

    /// True when group or others may read the file (an API key file should be 0600).
    static func isReadableByOthers(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else { return false }
        return st.st_mode & 0o044 != 0
    }

    static func processID() -> Int32 { getpid() }

    /// One line on stderr, for the rare warning the core gives when no caller passed a sink.
    static func standardError(_ line: String) {
        DescriptorOutput.writeAll(Array((line + "\n").utf8), to: 2)
    }

    /// Removes temporary files that `writeAtomically` left behind when its process was killed
    /// mid-write (`.NAME.tmp-PID-RANDOM` whose PID no longer runs). Returns how many it removed.
    /// The folder is opened without following a link and each name is checked and removed relative
    /// to that descriptor, so a folder or a name swapped for a link never sends the unlink elsewhere.
    @discardableResult
    static func removeStaleTemporaries(in directory: String) -> Int {
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { return 0 }
        guard let listing = fdopendir(folder) else { close(folder); return 0 }
        defer { closedir(listing) }
        var removed = 0
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            guard name.hasPrefix("."), let range = name.rangeOfText(".tmp-") else { continue }
            let pidText = name[range.upperBound...].prefix(while: { $0.isNumber })
            guard let pid = Int32(pidText), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            var st = stat()
            guard fstatat(folder, name, &st, AT_SYMLINK_NOFOLLOW) == 0, st.st_mode & S_IFMT == S_IFREG else { continue }
            if unlinkat(folder, name, 0) == 0 { removed += 1 }
        }
        return removed
    }
}
