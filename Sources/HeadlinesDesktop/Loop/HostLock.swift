import FoundationEssentials
import HeadlinesCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one-host lock: `flock` on `$XDG_RUNTIME_DIR/headlines/host.lock`, held for the life of the
/// process and released by the kernel when it dies, however it dies. With a session bus the bus
/// name is the single-instance rule; the lock is what still holds without one (a bare tty), and
/// what bars watch: a lock let go means the host stopped. The file holds the holder's PID
/// ("PID\n"), for the log lines that name the host already running.
///
/// The folder and the file are checked before use (`RuntimeFolder`): the file is opened without
/// following links, so a `host.lock` planted as a link to some file of ours is refused, never
/// truncated; a lock file or folder another user owns is refused with one sentence.
public final class HostLock: Sendable {
    /// Who holds the lock, as its file says.
    public struct Holder: Equatable, Sendable, CustomStringConvertible {
        public var pid: Int32
        public init(pid: Int32) { self.pid = pid }
        public var description: String { "\(pid)" }
    }

    public let path: String
    /// The locked descriptor, -1 until acquired; behind a mutex, as any thread may ask.
    private let fd = Mutex<Int32>(-1)
    /// The refusal `tryAcquire` last logged, so that a caller that tries again logs it once.
    private let reported = Mutex<String?>(nil)

    public init(path: String) {
        self.path = path
    }

    deinit { fd.withLock { if $0 >= 0 { close($0) } } }

    /// True when this process now holds the lock. A folder or lock file that is not ours is logged
    /// (once, one sentence) and reads as false; `acquire` throws it instead.
    public func tryAcquire() -> Bool {
        do {
            return try acquire()
        } catch {
            let sentence = "\(error)"
            let first = reported.withLock { last in
                defer { last = sentence }
                return last != sentence
            }
            if first { HostLog.error(sentence) }
            return false
        }
    }

    /// True when this process now holds the lock, false when another process does. Throws
    /// `RuntimeFolderRefusal` when the folder or `host.lock` is not ours or not private (a link,
    /// another user's), `SystemError` when the folder cannot be made.
    public func acquire() throws -> Bool {
        try fd.withLock { fd in
            if fd >= 0 { return true }
            try RuntimeFolder.ensurePrivate(PathText.directory(of: path))
            let f = try RuntimeFolder.openPrivate(path, flags: O_RDWR | O_CREAT)
            guard flock(f, LOCK_EX | LOCK_NB) == 0 else { close(f); return false }
            write(into: f)
            fd = f
            return true
        }
    }

    /// True while the file at `path` is the one this process holds locked: an `rm -rf` of the
    /// folder can unlink it and still leave the folder (when a file lands in it meanwhile).
    /// Lets go of the lock (a host waiting for its config hands it to the widget hosts it starts).
    public func release() {
        fd.withLock { if $0 >= 0 { close($0); $0 = -1 } }
    }

    public func holdsFileAtPath() -> Bool {
        fd.withLock { fd in
            var held = stat(), named = stat()
            return fd >= 0 && fstat(fd, &held) == 0 && lstat(path, &named) == 0
                && held.st_dev == named.st_dev && held.st_ino == named.st_ino
        }
    }

    /// For a holder whose folder may have been removed (`rm -rf $XDG_RUNTIME_DIR/headlines`): when
    /// the file at `path` is no longer the one this process locked, recreates the folder (checked,
    /// 0700), locks a new file and only then lets the old one go, so the lock is never free in
    /// between for this process. True when this process holds the lock on the file at `path`;
    /// false when another process took the new one first (a host that started meanwhile) or this
    /// process never held it. Throws what `acquire` throws.
    public func reacquireIfReplaced() throws -> Bool {
        try fd.withLock { fd in
            guard fd >= 0 else { return false }
            var held = stat(), named = stat()
            if fstat(fd, &held) == 0, lstat(path, &named) == 0, held.st_dev == named.st_dev, held.st_ino == named.st_ino {
                return true
            }
            try RuntimeFolder.ensurePrivate(PathText.directory(of: path))
            let f = try RuntimeFolder.openPrivate(path, flags: O_RDWR | O_CREAT)
            guard flock(f, LOCK_EX | LOCK_NB) == 0 else { close(f); return false }
            write(into: f)
            close(fd)
            fd = f
            return true
        }
    }

    /// "PID\n": content first, then cut what an older, longer PID left, so a reader never sees it
    /// empty.
    private func write(into f: Int32) {
        let content = Array("\(getpid())\n".utf8)
        _ = content.withUnsafeBytes { pwrite(f, $0.baseAddress, $0.count, 0) }
        _ = ftruncate(f, off_t(content.count))
    }

    /// Who holds the lock, or nil when nobody does, or its file cannot be read or trusted (a link,
    /// another user's, unparseable).
    public static func holder(path: String) -> Holder? {
        guard let f = try? RuntimeFolder.openPrivate(path, flags: O_RDONLY) else { return nil }
        defer { close(f) }
        // If we can take a shared lock, nobody holds the exclusive one.
        if flock(f, LOCK_SH | LOCK_NB) == 0 { flock(f, LOCK_UN); return nil }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = pread(f, &buffer, buffer.count, 0)
        guard n > 0 else { return nil }
        return parse(String(decoding: buffer[0..<n], as: UTF8.self))
    }

    /// The PID alone, for callers that only name the holder.
    public static func holderPID(path: String) -> Int32? { holder(path: path)?.pid }

    /// "PID\n"; a word after the PID is what earlier versions wrote ("PID host", "PID oneshot").
    static func parse(_ text: String) -> Holder? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard let first = words.first, let pid = Int32(first), pid > 0, words.count <= 2 else { return nil }
        return Holder(pid: pid)
    }
}
