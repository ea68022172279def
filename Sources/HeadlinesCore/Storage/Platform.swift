// The only file in the core that talks to libc: durable writes need fsync and rename, which
// FoundationEssentials does not expose with the guarantees we want.
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

    /// Writes `data` to `path` so that a reader sees either the old or the new file, whole, even
    /// after a crash or power loss: temporary file in the same folder, fsync, rename, fsync folder.
    static func writeAtomically(_ data: Data, to path: String, mode: mode_t = 0o600) throws {
        let dir = PathText.directory(of: path)
        try mkdirs(dir)
        let tmp = dir + "/." + PathText.lastComponent(of: path) + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SystemError(call: "open", path: tmp, errno: errno) }
        var ok = false
        defer { if !ok { unlink(tmp) } }
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    let e = errno; close(fd)
                    throw SystemError(call: "write", path: tmp, errno: e)
                }
                offset += n
            }
        }
        if fsync(fd) != 0 { let e = errno; close(fd); throw SystemError(call: "fsync", path: tmp, errno: e) }
        close(fd)
        if rename(tmp, path) != 0 { throw SystemError(call: "rename", path: path, errno: errno) }
        ok = true
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { fsync(dfd); close(dfd) }
    }

    /// The file's bytes, nil when it does not exist; other failures (permissions, I/O) throw.
    static func read(_ path: String) throws -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw SystemError(call: "open", path: path, errno: errno)
        }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw SystemError(call: "read", path: path, errno: errno) }
            if n == 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        return data
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

    /// Removes temporary files that `writeAtomically` left behind when its process was killed
    /// mid-write (`.NAME.tmp-PID-RANDOM` whose PID no longer runs). Returns how many it removed.
    @discardableResult
    static func removeStaleTemporaries(in directory: String) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        var removed = 0
        for name in names where name.hasPrefix(".") {
            guard let range = name.firstRange(of: ".tmp-") else { continue }
            let pidText = name[range.upperBound...].prefix(while: { $0.isNumber })
            guard let pid = Int32(pidText), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH, unlink(directory + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }
}
