import FoundationEssentials
import HeadlinesCore
#if canImport(Glibc)
import Glibc
#endif

/// The one way a command talks to the running host: find it, check it really is a host, and ask
/// it to reload (SIGUSR1) or re-read its configuration (SIGHUP).
///
/// The host lock names whoever holds it, and that is not always a host: a one-shot (`refresh` or
/// `i3blocks` with no host running) takes the same lock for the length of one reload, and a PID
/// read just as a holder died or was replaced can be anybody's. A one-shot installs no handler, so
/// SIGUSR1 would kill it mid-reload; a foreign process would get a signal it never asked for. So a
/// PID is only signalled when, in /proc, it belongs to this user, is called `headlines`, and its
/// command line is a host's (`run`). The command line is the kernel's own record of what the
/// process is, available from the instant it starts (the published timeline's `hostPID` exists only
/// after the host's first publication and outlives it), and it needs no change to the lock format.
/// Runs on any thread; it holds no state.
public struct HostClient: Sendable {
    /// What holds the host lock.
    public enum Holder: Equatable, Sendable {
        /// Nobody: no host and no one-shot runs.
        case none
        /// A `headlines run` of this user.
        case host(pid: Int32)
        /// A `headlines` one-shot of this user reloading under the lock (`command` is its subcommand).
        case oneShot(pid: Int32, command: String)
        /// The lock is held but the PID it names is gone, another user's or not `headlines`.
        case unverified(pid: Int32?)
    }

    /// What the host is asked to do.
    public enum Request: Sendable {
        /// Reload now, within the budget (SIGUSR1).
        case refresh
        /// Re-read the configuration and the muted sources (SIGHUP).
        case reconfigure

        var signal: Int32 { self == .refresh ? SIGUSR1 : SIGHUP }
    }

    /// What became of a request.
    public enum Outcome: Equatable, Sendable {
        case sent(pid: Int32)
        /// Not sent: nothing, a one-shot or an unverifiable process holds the lock.
        case notSent(Holder)
        /// kill(2) failed, with its errno.
        case failed(pid: Int32, errno: Int32)
    }

    public let lockPath: String
    let procRoot: String
    let userID: uid_t
    let subcommand: @Sendable ([String]) -> String?
    let send: @Sendable (Int32, Int32) -> Int32

    /// `subcommand` gets a process's arguments without argv[0] and names its subcommand: the
    /// executable passes its own argument parser, so `run` is found wherever it stands among options.
    public init(paths: XDGPaths, subcommand: @escaping @Sendable ([String]) -> String?) {
        self.init(lockPath: paths.hostLockFile, subcommand: subcommand)
    }

    /// For tests: another /proc, another user ID and a recording `send` in place of kill(2).
    public init(lockPath: String, procRoot: String = "/proc", userID: uid_t = getuid(),
                subcommand: @escaping @Sendable ([String]) -> String?,
                send: @escaping @Sendable (Int32, Int32) -> Int32 = { kill($0, $1) }) {
        self.lockPath = lockPath
        self.procRoot = procRoot
        self.userID = userID
        self.subcommand = subcommand
        self.send = send
    }

    /// Who holds the lock now.
    public func holder() -> Holder {
        guard Self.isLocked(lockPath) else { return .none }
        guard let pid = HostLock.holder(path: lockPath), pid > 0 else { return .unverified(pid: nil) }
        return classify(pid)
    }

    /// The PID of the running host, or nil when no verified host runs.
    public func hostPID() -> Int32? {
        if case let .host(pid) = holder() { return pid }
        return nil
    }

    /// Sends `request` to the host if, and only if, a verified host holds the lock.
    @discardableResult
    public func ask(_ request: Request) -> Outcome {
        let found = holder()
        guard case let .host(pid) = found else { return .notSent(found) }
        return send(pid, request.signal) == 0 ? .sent(pid: pid) : .failed(pid: pid, errno: errno)
    }

    /// What /proc says `pid` is.
    func classify(_ pid: Int32) -> Holder {
        let dir = procRoot + "/" + String(pid)
        var info = stat()
        guard stat(dir, &info) == 0, info.st_uid == userID else { return .unverified(pid: pid) }
        let comm = Self.contents(dir + "/comm")?.trimmed()
        // The resident host is its own program; a `headlines` holding the lock is a one-shot
        // (or an in-process bar host, `headlines waybar` with HEADLINES_NO_BAR_EXEC).
        if comm == "headlines-host" { return .host(pid: pid) }
        guard comm == "headlines",
              let cmdline = Self.contents(dir + "/cmdline") else { return .unverified(pid: pid) }
        let argv = cmdline.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
        let arguments = Array(argv.dropFirst()).filter { !$0.isEmpty }
        let command = subcommand(arguments) ?? ""
        return ["run", "waybar"].contains(command) || (command == "i3blocks" && arguments.contains("--persist"))
            ? .host(pid: pid) : .oneShot(pid: pid, command: command)
    }

    /// True when someone holds the lock (HostLock.holder says nil both for "free" and for "held,
    /// PID unreadable", and the second must not read as "no host").
    static func isLocked(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 { flock(fd, LOCK_UN); return false }
        return true
    }

    /// A small /proc file (they report size 0, so read to the end, bounded at 64 KiB).
    static func contents(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let n = Glibc.read(fd, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
