// With Platform.swift, the only files in the core that talk to libc: durable writes need fsync and
// rename, which FoundationEssentials does not expose with the guarantees we want.
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real file system behind every state file: plain POSIX calls, errno kept in `SystemError`.
/// A value with no mutable state, safe to share between threads.
public struct PosixFileSystem: StateFileSystem {
    /// Reads go through `RuntimeFolder.readPrivate`: no links followed, only our own files.
    let privateFiles: Bool
    /// False in the runtime folder: no fsync there. Its files are gone at logout or reboot anyway
    /// (a tmpfs on every desktop, where fsync does nothing), and the rename alone already keeps a
    /// reader from ever seeing half a file. On a disk, two fsyncs per file were most of the
    /// time between a reload's report and the bar line (the bar files).
    let syncs: Bool

    public init() { privateFiles = false; syncs = true }

    /// For files in `$XDG_RUNTIME_DIR/headlines` (the bar lines, the rotation offset): a link there, or a file another user planted, is refused instead of
    /// read, and writes are atomic but not synced. Not for the cache, state and key files, which
    /// a person may well have linked elsewhere on purpose, and which must survive a power cut.
    public static let runtimeFolder = PosixFileSystem(privateFiles: true, syncs: false)

    /// For the state a reload writes again anyway and the next one can do without: the feeds'
    /// validators and last headlines (feeds.json) and the last attempt (status.json). Atomic, so
    /// a reader never sees half a file, but not synced: after a power cut one may hold the
    /// version before, or be set aside as corrupt, and the next reload fetches in full. The
    /// ledger, the seen set and the cache, which a reload cannot rebuild, stay durable.
    public static let regenerable = PosixFileSystem(privateFiles: false, syncs: false)

    init(privateFiles: Bool, syncs: Bool) { self.privateFiles = privateFiles; self.syncs = syncs }

    public func createDirectories(_ path: String) throws { try Platform.mkdirs(path) }

    /// `.NAME.tmp-PID-RANDOM`: the PID lets `removeStaleTemporaries` sweep what a killed process left.
    public func temporaryName(for path: String) -> String {
        PathText.directory(of: path) + "/." + PathText.lastComponent(of: path)
            + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    public func createExclusive(_ path: String, mode: UInt32) throws -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode))
        guard fd >= 0 else { throw SystemError(call: "open", path: path, errno: errno) }
        return fd
    }

    public func write(_ data: Data, to descriptor: Int32, path: String) throws {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw SystemError(call: "write", path: path, errno: errno)
                }
                offset += n
            }
        }
    }

    public func sync(_ descriptor: Int32, path: String) throws {
        guard syncs else { return }
        if fsync(descriptor) != 0 { throw SystemError(call: "fsync", path: path, errno: errno) }
    }

    public func close(_ descriptor: Int32) { _ = Glibc.close(descriptor) }

    public func rename(_ source: String, to destination: String) throws {
        if Glibc.rename(source, destination) != 0 { throw SystemError(call: "rename", path: destination, errno: errno) }
    }

    public func syncDirectory(_ path: String) {
        guard syncs else { return }
        let dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { fsync(dfd); _ = Glibc.close(dfd) }
    }

    public func openAppending(_ path: String) throws -> (descriptor: Int32, size: Int)? {
        // O_NONBLOCK: a FIFO put there must not hang open(2). ENXIO is such a FIFO, ELOOP a link
        // in the runtime folder: not the file its writer left, which it then writes anew.
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NONBLOCK | (privateFiles ? O_NOFOLLOW : 0))
        guard fd >= 0 else {
            if [ENOENT, ENXIO, ELOOP].contains(errno) { return nil }
            throw SystemError(call: "open", path: path, errno: errno)
        }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { _ = Glibc.close(fd); return nil }
        return (fd, Int(st.st_size))
    }

    public func remove(_ path: String) { unlink(path) }

    public func read(_ path: String, limit: Int) throws -> Data? {
        if privateFiles { return try RuntimeFolder.readPrivate(path, limit: limit, userID: getuid()) }
        // O_NONBLOCK: a FIFO (or a device) put where a file should be must not hang open(2); the
        // descriptor is then refused by kind before anything is read.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw SystemError(call: "open", path: path, errno: errno)
        }
        defer { _ = Glibc.close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw SystemError(call: "fstat", path: path, errno: errno) }
        guard st.st_mode & S_IFMT == S_IFREG else { throw NotARegularFile(path: path, mode: UInt32(st.st_mode)) }
        return try Self.readAll(fd, path: path, limit: limit)
    }

    /// Reads `fd` to its end, at most `limit` bytes (a longer file throws `StateFileTooLarge`).
    public static func readAll(_ fd: Int32, path: String, limit: Int) throws -> Data {
        // A regular file's size refuses an absurd one before a byte is read (a 200 MB seen set
        // costs nothing); the bounded loop below still guards a file that grows meanwhile.
        var st = stat()
        if fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, Int(st.st_size) > limit {
            throw StateFileTooLarge(path: path, limit: limit)
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: min(65536, limit + 1))
        while true {
            // One byte beyond the limit tells "exactly limit" from "longer".
            let want = min(buffer.count, limit + 1 - data.count)
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, want) }
            if n < 0 { if errno == EINTR { continue }; throw SystemError(call: "read", path: path, errno: errno) }
            if n == 0 { break }
            data.append(contentsOf: buffer[0..<n])
            if data.count > limit { throw StateFileTooLarge(path: path, limit: limit) }
        }
        return data
    }
}

/// A FIFO, a device, a folder or a socket where a file headlines reads should be: refused on
/// the descriptor (opened without blocking), never read.
public struct NotARegularFile: Error, CustomStringConvertible, Equatable, Sendable {
    public var path: String
    /// st_mode of what is there.
    public var mode: UInt32
    public init(path: String, mode: UInt32) { self.path = path; self.mode = mode }

    /// "a FIFO", "a device", ...: what was found instead of a file.
    public var kind: String {
        switch mode & UInt32(S_IFMT) {
        case UInt32(S_IFIFO): return "a FIFO"
        case UInt32(S_IFCHR), UInt32(S_IFBLK): return "a device"
        case UInt32(S_IFDIR): return "a folder"
        case UInt32(S_IFSOCK): return "a socket"
        default: return "not a file"
        }
    }

    public var description: String { "\(path) is \(kind), not a regular file" }
}
