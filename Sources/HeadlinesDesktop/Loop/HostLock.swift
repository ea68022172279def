import FoundationEssentials
import HeadlinesCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one-host lock: `flock` on `$XDG_RUNTIME_DIR/headlines/host.lock`, held for the life of the
/// process and released by the kernel when it dies, however it dies, so another copy can take over.
/// The file holds the host's PID for `refresh` and `status`.
public final class HostLock: Sendable {
    public let path: String
    /// The locked descriptor, -1 until acquired; behind a mutex since the stand-by thread and
    /// the loop both reach this object.
    private let fd = Mutex<Int32>(-1)

    public init(path: String) { self.path = path }

    deinit { fd.withLock { if $0 >= 0 { close($0) } } }

    /// True when this process now holds the lock.
    public func tryAcquire() -> Bool {
        fd.withLock { fd in
            if fd >= 0 { return true }
            guard let f = acquire() else { return false }
            fd = f
            return true
        }
    }

    private func acquire() -> Int32? {
        let dir = PathText.directory(of: path)
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let f = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard f >= 0 else { return nil }
        guard flock(f, LOCK_EX | LOCK_NB) == 0 else { close(f); return nil }
        let pid = "\(getpid())\n"
        _ = ftruncate(f, 0)
        _ = pid.withCString { pwrite(f, $0, strlen($0), 0) }
        return f
    }

    /// The PID of the process holding the lock, or nil when no host runs.
    public static func holder(path: String) -> Int32? {
        let f = open(path, O_RDONLY | O_CLOEXEC)
        guard f >= 0 else { return nil }
        defer { close(f) }
        // If we can take a shared lock, nobody holds the exclusive one.
        if flock(f, LOCK_SH | LOCK_NB) == 0 { flock(f, LOCK_UN); return nil }
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = read(f, &buffer, buffer.count)
        guard n > 0 else { return nil }
        return Int32(String(decoding: buffer[0..<n], as: UTF8.self).trimmed())
    }
}
