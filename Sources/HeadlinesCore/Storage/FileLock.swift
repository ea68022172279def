// Beside Platform.swift: flock(2) is libc's, and the core keeps its libc calls in Storage.
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive flock(2) on a lock file beside a state file, held around a read-modify-write
/// that several processes may run at once (40 `headlines next` at the same moment must move the
/// offset by 40). The lock file is never written or removed: removing it would let two processes
/// lock two different files. The kernel drops the lock when the process dies.
public enum FileLock {
    /// Runs `body` holding the lock on `path` (created mode 0600 if missing, opened like every
    /// runtime file: no links, ours only). Blocks until the lock is free.
    public static func withExclusive<T>(_ path: String, _ body: () throws -> T) throws -> T {
        try Platform.mkdirs(PathText.directory(of: path))
        let fd = try RuntimeFolder.openPrivate(path, flags: O_RDWR | O_CREAT, mode: 0o600)
        defer { _ = close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { throw SystemError(call: "flock", path: path, errno: errno) }
        }
        defer { _ = flock(fd, LOCK_UN) }
        return try body()
    }
}
