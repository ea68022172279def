import FoundationEssentials
import HeadlinesCore
#if canImport(Glibc)
import Glibc
#endif

/// Who holds the host lock, for `status` and the commands that work without a host: the host
/// itself is reached only through the bus (`BusClient`).
///
/// The host lock names whoever holds it, and that is not always a host: a reload outside a host
/// (`refresh` with no session bus, an i3blocks one-shot) takes the same lock for one reload. /proc
/// says which: the holder must belong to this user and be `headlines-host`, or `headlines` whose
/// subcommand is `run`, to be a host, since a PID read just as a holder died or was replaced can
/// be anybody's; another `headlines` subcommand is a one-shot.
/// The folder and the lock are checked first (`RuntimeFolder`): in a folder another user made, the
/// lock says nothing we can trust. Runs on any thread; it holds no state.
public struct HostClient: Sendable {
    /// What holds the host lock.
    public enum Holder: Equatable, Sendable {
        /// Nobody: no host and no one-shot runs.
        case none
        /// A `headlines run` of this user.
        case host(pid: Int32)
        /// A one-shot reloading under the lock (`command` is its subcommand, "" when /proc cannot say).
        case oneShot(pid: Int32, command: String)
        /// The lock is held but the PID it names is gone, another user's or not `headlines`.
        case unverified(pid: Int32?)
        /// The runtime folder or the lock file is not ours or not private: the sentence says which
        /// and what to do (`RuntimeFolderRefusal`).
        case refused(String)
    }

    public let lockPath: String
    let procRoot: String
    let userID: uid_t
    let subcommand: @Sendable ([String]) -> String?

    /// `subcommand` gets a process's arguments without argv[0] and names its subcommand: the
    /// executable passes its own argument parser, so `run` is found wherever it stands among options.
    public init(paths: XDGPaths, subcommand: @escaping @Sendable ([String]) -> String?) {
        self.init(lockPath: paths.hostLockFile, subcommand: subcommand)
    }

    /// For tests: another /proc and another user ID.
    public init(lockPath: String, procRoot: String = "/proc", userID: uid_t = getuid(),
                subcommand: @escaping @Sendable ([String]) -> String?) {
        self.lockPath = lockPath
        self.procRoot = procRoot
        self.userID = userID
        self.subcommand = subcommand
    }

    /// Who holds the lock now.
    public func holder() -> Holder {
        do {
            // Never created here: a command that only asks must not make the folder.
            // The folder must be the real user's, whatever `userID` a test gives for /proc.
            _ = try RuntimeFolder.inspect(PathText.directory(of: lockPath))
            let fd = try RuntimeFolder.openPrivate(lockPath, flags: O_RDONLY)
            close(fd)
        } catch let refusal as RuntimeFolderRefusal {
            return .refused(refusal.description)
        } catch {
            return .none  // missing folder or lock file: nobody has run here yet
        }
        guard Self.isLocked(lockPath) else { return .none }
        guard let found = HostLock.holder(path: lockPath) else { return .unverified(pid: nil) }
        return classify(found)
    }

    /// The PID of the running host, or nil when no verified host runs.
    public func hostPID() -> Int32? {
        if case let .host(pid) = holder() { return pid }
        return nil
    }

    /// What /proc says the holder is.
    func classify(_ found: HostLock.Holder) -> Holder {
        let pid = found.pid
        let dir = procRoot + "/" + String(pid)
        var info = stat()
        guard stat(dir, &info) == 0, info.st_uid == userID,
              let comm = Self.contents(dir + "/comm")?.trimmed(), ["headlines", "headlines-host", "headlines-fetch"].contains(comm),
              let cmdline = Self.contents(dir + "/cmdline") else {
            return .unverified(pid: pid)
        }
        let argv = cmdline.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
        let arguments = Array(argv.dropFirst()).filter { !$0.isEmpty }
        var command = comm == "headlines-host" ? "run" : subcommand(arguments) ?? ""
        // headlines-fetch holds the lock for the one-shot reloads the CLI hands it: `refresh`,
        // and the i3blocks block's `reload-if-due` / `reload-forced`.
        if comm == "headlines-fetch" { command = command == "refresh" ? "refresh" : "i3blocks" }
        return command == "run" ? .host(pid: pid) : .oneShot(pid: pid, command: command)
    }

    /// True when someone holds the lock (HostLock.holder says nil both for "free" and for "held,
    /// PID unreadable", and the second must not read as "no host").
    static func isLocked(_ path: String) -> Bool {
        guard let fd = try? RuntimeFolder.openPrivate(path, flags: O_RDONLY) else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 { flock(fd, LOCK_UN); return false }
        return true
    }

    /// A small /proc file (they report size 0, so read to the end, bounded at 64 KiB), through
    /// the one bounded reader of regular files.
    static func contents(_ path: String) -> String? {
        guard let data = try? PosixFileSystem().read(path, limit: 65_536) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
