import CBarSys
import Glibc

/// The few system calls headlines-bar makes, in Swift shapes. No Foundation: this binary is
/// linked fully static and has to stay a few megabytes.
enum Sys {
    static func env(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// Writes all of `bytes` to a blocking descriptor (stderr, or stdout in the one-shot).
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += n
        }
    }

    static func warn(_ message: String) { writeAll(2, Array(("headlines-bar: " + message + "\n").utf8)) }

    /// lstat: nil when the path does not exist (or cannot be looked at).
    static func lstatOf(_ path: String) -> stat? {
        var st = stat()
        return lstat(path, &st) == 0 ? st : nil
    }

    static func isDirectory(_ st: stat) -> Bool { st.st_mode & S_IFMT == S_IFDIR }
    static func isRegular(_ st: stat) -> Bool { st.st_mode & S_IFMT == S_IFREG }

    /// Reads a file we own, at most `limit` bytes: opened O_NOFOLLOW, then fstat must say a regular
    /// file owned by us. `.absent` when it does not exist, `.tooLarge` past `limit` (never half a
    /// line), `.refused` for anything else odd.
    enum FileRead: Equatable { case bytes([UInt8]), absent, refused, tooLarge }

    static func readOwnedFile(_ path: String, limit: Int = 65536) -> FileRead {
        let fd = cbs_open_nofollow(path)
        if fd < 0 { return errno == ENOENT || errno == ENOTDIR ? .absent : .refused }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, isRegular(st), st.st_uid == getuid() else { return .refused }
        guard st.st_size <= limit else { return .tooLarge }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while out.count <= limit {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, min($0.count, limit + 1 - out.count)) }
            if n < 0 {
                if errno == EINTR { continue }
                return .refused
            }
            if n == 0 { return .bytes(out) }
            out.append(contentsOf: chunk[0..<n])
        }
        return .tooLarge
    }

    /// Replaces the file at `path` with `bytes` (a temporary file renamed over it: a reader sees
    /// the old record or the new) unless it holds them already; makes `folder` 0700 when missing.
    /// Best effort: a record that cannot be written only makes a click open the host's entry.
    static func writeIfChanged(_ path: String, _ bytes: [UInt8], folder: String) {
        if case .bytes(let old) = readOwnedFile(path, limit: bytes.count), old == bytes { return }
        if lstatOf(folder) == nil { _ = cbs_mkdir_private(folder) }
        guard let st = lstatOf(folder), isDirectory(st), st.st_uid == getuid() else { return }
        let temporary = path + ".\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        writeAll(fd, bytes)
        close(fd)
        if rename(temporary, path) != 0 { unlink(temporary) }
    }

    /// The folder this binary lives in (from /proc/self/exe).
    static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        guard n > 0 else { return nil }
        let path = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }

    /// A sibling binary: beside us first, then ../libexec/headlines/, then ../../bin/ (when we
    /// are the one in libexec).
    static func sibling(_ name: String) -> String? {
        guard let dir = executableDirectory() else { return nil }
        for candidate in [dir + "/" + name, dir + "/../libexec/headlines/" + name, dir + "/../../bin/" + name]
        where access(candidate, X_OK) == 0 {
            return candidate
        }
        return nil
    }

    /// NULL-terminated C string arrays for `cbs_spawn`.
    static func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] {
        strings.map { strdup($0) } + [nil]
    }

    /// Starts `path` with `arguments` (argv[0] included) and our environment, not waited for
    /// (see cbs_spawn for the descriptors it gets). The PID, or -1.
    static func spawn(_ path: String, _ arguments: [String]) -> pid_t {
        let argv = cStrings(arguments)
        let envp = cStrings(environment())
        defer { (argv + envp).forEach { free($0) } }
        return cbs_spawn(path, argv, envp)
    }

    /// Our environment (`headlines` hands us one without API keys).
    static func environment() -> [String] {
        var out: [String] = []
        var p = environ
        while let entry = p.pointee {
            out.append(String(cString: entry))
            p += 1
        }
        return out
    }

    /// Starts `headlines` with `arguments`, not waited for (the caller reaps it, or, in a
    /// one-shot that exits at once, init does). False when it could not be found or started.
    @discardableResult
    static func runCLI(_ arguments: [String]) -> pid_t {
        guard let cli = sibling("headlines") else {
            warn("cannot find headlines beside \(executableDirectory() ?? "this program")")
            return -1
        }
        let pid = spawn(cli, [cli] + arguments)
        if pid <= 0 { warn("cannot start \(cli): errno \(errno)") }
        return pid
    }

    /// Waits for a child `runCLI` started (nothing when it did not start).
    static func wait(for pid: pid_t) {
        guard pid > 0 else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// One sentence on stderr and exit status 2, for arguments this program does not take.
    static func usageError(_ sentence: String) -> Never {
        warn(sentence + "; headlines-bar --help lists the formats.")
        exit(2)
    }
}
