// With Platform.swift and PosixFileSystem.swift, the only files in the core that talk to libc:
// lstat, fstat and O_NOFOLLOW are what tell our folder from one another user planted, and
// FoundationEssentials exposes none of them.
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `$XDG_RUNTIME_DIR/headlines` is ours or nothing. In a world-writable runtime folder another
/// user can create `headlines/` first, hold `host.lock` (we would stand by forever), plant a
/// bar file whose link a click opens, or make `host.lock` a symbolic link so that our
/// truncation lands on a file of theirs or ours. So the folder must be a real directory (not a
/// link), owned by us, with no permission for group or others, and every file in it is opened
/// without following links and checked on its descriptor (no window between check and use).
/// Stateless; safe from any thread.
public enum RuntimeFolder {
    /// Which directory the folder is (st_dev, st_ino): a host compares it later to notice that the
    /// folder was removed or replaced under it.
    public struct Identity: Equatable, Hashable, Sendable {
        public var device: UInt64
        public var inode: UInt64
        public init(device: UInt64, inode: UInt64) { self.device = device; self.inode = inode }
    }

    /// Creates `path` mode 0700 when it is missing (its parent, the runtime folder itself, too when
    /// that is missing: `XDG_RUNTIME_DIR` pointing at a folder not made yet), then checks it.
    /// A folder of ours that others may read but not write (0755: `mkdir -p` under umask 022, as
    /// older systemd units made it) is tightened to 0700: nobody else can have put anything in it.
    /// Throws `RuntimeFolderRefusal` when the folder is not ours or others may write to it,
    /// `SystemError` when it cannot be created.
    @discardableResult
    public static func ensurePrivate(_ path: String, userID: UInt32 = getuid()) throws -> Identity {
        if mkdir(path, 0o700) != 0 {
            switch errno {
            case EEXIST: break
            case ENOENT:
                // Only the chain up to the parent: nothing above the runtime folder is ours to make.
                try Platform.mkdirs(PathText.directory(of: path))
                if mkdir(path, 0o700) != 0 && errno != EEXIST { throw SystemError(call: "mkdir", path: path, errno: errno) }
            default: throw SystemError(call: "mkdir", path: path, errno: errno)
            }
        }
        guard let identity = try check(path, userID: userID, tighten: true) else {
            throw SystemError(call: "open", path: path, errno: ENOENT)
        }
        return identity
    }

    /// Checks `path` without creating or changing it: nil when it does not exist, its identity
    /// when it is a private folder of ours, else a `RuntimeFolderRefusal`. For `status` and
    /// `refresh`, which only look.
    public static func inspect(_ path: String, userID: UInt32 = getuid()) throws -> Identity? {
        try check(path, userID: userID, tighten: false)
    }

    /// Opened, not lstat-ed: the checks (and the chmod) then apply to the very directory, even if
    /// the name is swapped meanwhile.
    private static func check(_ path: String, userID: UInt32, tighten: Bool) throws -> Identity? {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP, ENOTDIR:
                // Linux answers ENOTDIR for a link to a folder (O_DIRECTORY wins): lstat tells them apart.
                var st = stat()
                let link = lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK
                throw RuntimeFolderRefusal(path: path, problem: link ? .symbolicLink : .wrongKind, isFolder: true)
            default: throw SystemError(call: "open", path: path, errno: errno)
            }
        }
        defer { _ = close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw SystemError(call: "fstat", path: path, errno: errno) }
        if st.st_uid != userID { throw RuntimeFolderRefusal(path: path, problem: .ownedBy(uid: st.st_uid), isFolder: true) }
        if st.st_mode & 0o077 != 0 {
            let writable = st.st_mode & 0o022 != 0
            guard tighten, !writable, fchmod(fd, 0o700) == 0 else {
                throw RuntimeFolderRefusal(path: path, problem: .openToOthers(mode: UInt32(st.st_mode & 0o7777)), isFolder: true)
            }
        }
        return Identity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    /// The folder's identity now, nil when it is gone (or no longer a directory). Never throws: a
    /// host polls it to notice `rm -rf`, then calls `ensurePrivate` to get a checked one back.
    public static func identity(_ path: String) -> Identity? {
        var st = stat()
        guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else { return nil }
        return Identity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    /// Opens a file of the runtime folder: never through a symbolic link (O_NOFOLLOW), never
    /// blocking on a FIFO someone planted (O_NONBLOCK; a no-op on regular files), then checks on
    /// the descriptor itself that it is a regular file of ours that group and others cannot write.
    /// `flags` are open(2)'s (O_RDONLY, O_RDWR | O_CREAT, ...). The caller closes the descriptor.
    /// Throws `SystemError` (ENOENT when missing) or `RuntimeFolderRefusal`.
    public static func openPrivate(_ path: String, flags: Int32, mode: UInt32 = 0o600,
                                   userID: UInt32 = getuid()) throws -> Int32 {
        let fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode_t(mode))
        guard fd >= 0 else {
            let failure = errno
            // ELOOP is O_NOFOLLOW meeting a link as the last component (dangling or not).
            if failure == ELOOP { throw RuntimeFolderRefusal(path: path, problem: .symbolicLink, isFolder: false) }
            throw SystemError(call: "open", path: path, errno: failure)
        }
        do {
            try checkFile(descriptor: fd, path: path, userID: userID)
        } catch {
            _ = close(fd)
            throw error
        }
        return fd
    }

    /// The checks of `openPrivate`, on a descriptor already open.
    static func checkFile(descriptor fd: Int32, path: String, userID: UInt32) throws {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw SystemError(call: "fstat", path: path, errno: errno) }
        if st.st_mode & S_IFMT != S_IFREG { throw RuntimeFolderRefusal(path: path, problem: .wrongKind, isFolder: false) }
        if st.st_uid != userID { throw RuntimeFolderRefusal(path: path, problem: .ownedBy(uid: st.st_uid), isFolder: false) }
        if st.st_mode & 0o022 != 0 {
            throw RuntimeFolderRefusal(path: path, problem: .openToOthers(mode: UInt32(st.st_mode & 0o7777)), isFolder: false)
        }
    }

    /// A runtime file's bytes (at most `limit`), nil when it does not exist; a link, a foreign or a
    /// writable-by-others file throws `RuntimeFolderRefusal`, a longer one `StateFileTooLarge`.
    public static func readPrivate(_ path: String, userID: UInt32 = getuid()) throws -> Data? {
        try readPrivate(path, limit: ReadLimits.stateFile, userID: userID)
    }

    static func readPrivate(_ path: String, limit: Int, userID: UInt32) throws -> Data? {
        let fd: Int32
        do { fd = try openPrivate(path, flags: O_RDONLY, userID: userID) } catch let error as SystemError where error.errno == ENOENT {
            return nil
        }
        defer { _ = close(fd) }
        return try PosixFileSystem.readAll(fd, path: path, limit: limit)
    }
}
