import FoundationEssentials
import HeadlinesCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one-host lock: `flock` on `$XDG_RUNTIME_DIR/headlines/host.lock`, held for the life of the
/// process and released by the kernel when it dies, however it dies, so another copy can take over.
/// The file says who holds it, "PID host\n" or "PID oneshot\n", for `refresh` and `status`: a
/// one-shot (`refresh` or `i3blocks` with no host running) holds it for one reload and has no
/// signal handler, so it must never be signalled.
///
/// The folder and the file are checked before use (`RuntimeFolder`): the file is opened without
/// following links, so a `host.lock` planted as a link to some file of ours is refused, never
/// truncated; a lock file or folder another user owns is refused with one sentence.
public final class HostLock: Sendable {
    /// What kind of process holds the lock.
    public enum Role: String, Sendable, Equatable {
        /// The resident host (`headlines run`): signal it to reload or reconfigure.
        case host
        /// A one-shot reload (`refresh`, `i3blocks` with no host): never signal it.
        case oneShot = "oneshot"
    }

    /// Who holds the lock, as its file says.
    public struct Holder: Equatable, Sendable, CustomStringConvertible {
        public var pid: Int32
        public var role: Role
        /// False for a bare "PID\n", what holders before the role was written leave: read as a
        /// host, which `HostClient` then has to confirm from the command line.
        public var roleWritten: Bool
        public init(pid: Int32, role: Role, roleWritten: Bool = true) {
            self.pid = pid
            self.role = role
            self.roleWritten = roleWritten
        }
        public var description: String { "\(pid)" + (role == .host ? "" : " (a one-shot reload)") }
    }

    public let path: String
    public let role: Role
    /// The locked descriptor, -1 until acquired; behind a mutex since the stand-by thread and
    /// the loop both reach this object.
    private let fd = Mutex<Int32>(-1)
    /// The refusal `tryAcquire` last logged, so a stand-by host logs it once, not every retry.
    private let reported = Mutex<String?>(nil)

    public init(path: String, role: Role = .host) {
        self.path = path
        self.role = role
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

    /// "PID role\n": content first, then cut what an older, longer PID left, so a reader never
    /// sees it empty.
    private func write(into f: Int32) {
        let content = Array("\(getpid()) \(role.rawValue)\n".utf8)
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

    /// "PID ROLE\n"; a bare "PID\n" is what hosts before the role was written leave, read as a host
    /// (`HostClient` still checks /proc before signalling it).
    static func parse(_ text: String) -> Holder? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard let first = words.first, let pid = Int32(first), pid > 0, words.count <= 2 else { return nil }
        guard words.count == 2 else { return Holder(pid: pid, role: .host, roleWritten: false) }
        guard let role = Role(rawValue: String(words[1])) else { return nil }
        return Holder(pid: pid, role: role)
    }
}
