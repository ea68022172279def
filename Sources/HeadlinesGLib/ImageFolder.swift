import FoundationEssentials
import Glibc
import HeadlinesCore

/// A folder headlines writes and prunes, never followed through a link: it is opened with
/// O_NOFOLLOW | O_DIRECTORY, and every file in it is created, checked, renamed and removed
/// relative to that descriptor (openat, fstatat with AT_SYMLINK_NOFOLLOW, renameat, unlinkat),
/// so a link put there in place of the folder, before or after it was opened, never leads a
/// write or a removal anywhere else. The folders above it are the user's and may be links.
///
/// One thread at a time (the reload child's); the descriptor is closed with the value.
public final class ImageFolder {
    public let path: String
    private let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// Opens the folder at `path`, making it (mode 0700, and its missing parents) when there is
    /// none; a link or anything but a folder there is refused.
    public static func open(_ path: String) -> Result<ImageFolder, FolderRefusal> {
        let parent = PathText.directory(of: path), name = PathText.lastComponent(of: path)
        do { try PosixFileSystem().createDirectories(parent) } catch {
            return .failure(FolderRefusal(path: path, problem: "cannot be made (\(error))"))
        }
        let parentFD = Glibc.open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard parentFD >= 0 else { return .failure(FolderRefusal(path: path, problem: "cannot be opened (\(String(cString: strerror(errno))))")) }
        defer { close(parentFD) }
        if mkdirat(parentFD, name, 0o700) != 0 && errno != EEXIST {
            return .failure(FolderRefusal(path: path, problem: "cannot be made (\(String(cString: strerror(errno))))"))
        }
        let fd = openat(parentFD, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let why = errno
            var info = stat()
            if fstatat(parentFD, name, &info, AT_SYMLINK_NOFOLLOW) == 0 {
                if info.st_mode & S_IFMT == S_IFLNK { return .failure(FolderRefusal(path: path, problem: "is a symbolic link")) }
                if info.st_mode & S_IFMT != S_IFDIR { return .failure(FolderRefusal(path: path, problem: "is not a folder")) }
            }
            return .failure(FolderRefusal(path: path, problem: "cannot be opened (\(String(cString: strerror(why))))"))
        }
        return .success(ImageFolder(path: path, fd: fd))
    }

    /// The size and modification time of the regular file `name` in the folder; nil for
    /// anything else (a link is not followed).
    public func file(_ name: String) -> (size: Int, modified: Int)? {
        var info = stat()
        guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return (Int(info.st_size), info.st_mtim.tv_sec)
    }

    /// Every entry's name but "." and "..".
    public func names() -> [String] {
        // A descriptor of its own: readdir moves the file offset.
        let listing = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard listing >= 0, let dir = fdopendir(listing) else {
            if listing >= 0 { close(listing) }
            return []
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Replaces `name` with `data` atomically and durably: a temporary file beside it (created,
    /// never opened through a link), fsync, renameat, fsync of the folder.
    public func write(_ data: Data, as name: String, mode: mode_t = 0o600) throws {
        let temporary = Self.temporaryName(for: name)
        let out = openat(fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard out >= 0 else { throw SystemError(call: "open", path: path + "/" + temporary, errno: errno) }
        do {
            defer { close(out) }
            try PosixFileSystem().write(data, to: out, path: path + "/" + temporary)
            if fsync(out) != 0 { throw SystemError(call: "fsync", path: path + "/" + temporary, errno: errno) }
        } catch {
            unlinkat(fd, temporary, 0)
            throw error
        }
        guard renameat(fd, temporary, fd, name) == 0 else {
            let why = errno
            unlinkat(fd, temporary, 0)
            throw SystemError(call: "rename", path: path + "/" + name, errno: why)
        }
        fsync(fd)
    }

    /// Removes the entry `name` (a link itself, never what it points to); true when it went.
    @discardableResult
    public func remove(_ name: String) -> Bool { unlinkat(fd, name, 0) == 0 }

    /// `.NAME.tmp-PID-RANDOM`, as every atomic write here names its temporary file.
    static func temporaryName(for name: String) -> String {
        ".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// The PID in a temporary name of `temporaryName(for:)`, if `name` is one for `target`.
    static func writer(ofTemporary name: String, for target: (String) -> Bool) -> Int32? {
        guard name.hasPrefix("."), let mark = name.rangeOfText(".tmp-") else { return nil }
        let start = name.index(after: name.startIndex)
        guard target(String(name[start..<mark.lowerBound])) else { return nil }
        return Int32(name[mark.upperBound...].prefix { $0.isNumber })
    }
}

/// Why a folder headlines writes was not used: one sentence with what to do.
public struct FolderRefusal: Error, CustomStringConvertible, Sendable {
    public var path: String
    /// "is a symbolic link", "is not a folder", "cannot be opened (...)".
    public var problem: String

    public var description: String {
        "\(path) \(problem), so headlines stores no notification images there and deletes nothing in it: "
            + "remove it (headlines then makes the folder itself) or set images = false under [notify]."
    }
}
