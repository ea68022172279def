import CGLib
import FoundationEssentials
import HeadlinesCore
#if canImport(Glibc)
import Glibc
#endif

/// The one place the GLib programs start another program: in place of this one (`replace`),
/// detached (`spawnDetached`), with pipes (`runPiped`, the launcher menu), as a watched child
/// (`spawnWatched`, the reload child) or as the desktop's handler of a link (`openDefault`, in
/// HeadlinesDesktop, which has GIO).
/// Never through a shell. Every environment is built explicitly: `userEnvironment` for whatever
/// is started for the user, which never holds an API key; only the reload child gets the keys.
public enum ProcessLauncher {
    /// The path of the running program, for starting it again.
    public static var selfPath: String { Binaries.selfPath }

    /// `environment` without any variable that may hold an API key.
    public static func userEnvironment(_ environment: [String: String]) -> [String: String] {
        environment.filter { !Config.Provider.keyVariables.contains($0.key) }
    }

    /// Whether a started program may bring its window to the front, which Wayland's
    /// xdg-activation and X11's startup notification allow only with a token from the compositor.
    public enum Activation: Sendable, Equatable {
        /// Whatever this process was started with passes on: a command run for one click.
        case inherited
        /// The token the notification server sent with the click, or none. Any token in our own
        /// environment is removed: a token is good for one launch, and the host's is from its start.
        case token(String?)
    }

    /// The two variables a program reads its activation token from: Wayland's and X11's.
    package static let activationVariables = ["XDG_ACTIVATION_TOKEN", "DESKTOP_STARTUP_ID"]

    /// `environment` with `activation`'s token in both variables (or neither, for a missing one).
    public static func environment(_ environment: [String: String], activation: Activation) -> [String: String] {
        guard case let .token(token) = activation else { return environment }
        var result = environment.filter { !activationVariables.contains($0.key) }
        if let token, !token.isEmpty { for variable in activationVariables { result[variable] = token } }
        return result
    }

    /// execve; returns only when it failed, with errno set.
    public static func replace(with argv: [String], environment: [String: String]) {
        withCStrings(argv) { cArgs in
            withCStrings(environment.map { $0.key + "=" + $0.value }) { cEnv in _ = execve(argv[0], cArgs, cEnv) }
        }
    }

    /// Starts a program with stdin and stdout on /dev/null and does not wait for it. `newSession`:
    /// in its own session, so it outlives whoever started it (a bar that kills its process
    /// group takes nothing with it), and its stderr to /dev/null when ours is a terminal it
    /// would write into later. False, with a warning in the log, when it did not start.
    @discardableResult
    public static func spawnDetached(_ argv: [String], environment: [String: String], newSession: Bool = false) -> Bool {
        guard !argv.isEmpty else { return false }
        let quiet = newSession && isatty(2) != 0 ? G_SPAWN_STDERR_TO_DEV_NULL.rawValue : 0
        let flags = GSpawnFlags(rawValue: G_SPAWN_SEARCH_PATH.rawValue | G_SPAWN_STDOUT_TO_DEV_NULL.rawValue
                                | G_SPAWN_STDIN_FROM_DEV_NULL.rawValue | quiet)
        var error: UnsafeMutablePointer<GError>?
        let started = withCStrings(argv) { cArgs in
            withCStrings(environment.map { $0.key + "=" + $0.value }) { cEnv in
                g_spawn_async(nil, cArgs, cEnv, flags, newSession ? { _ in _ = setsid() } : nil, nil, nil, &error) != 0
            }
        }
        if !started { HostLog.warning("could not start \(argv[0]): \(message(of: &error))") }
        return started
    }

    /// A started child whose exit the caller watches (`g_child_watch`): its PID and the read end
    /// of its stdout (and of its stdin's write end, when asked for).
    public struct Child {
        public var pid: GPid
        public var stdin: Int32
        public var stdout: Int32
    }

    /// Starts `argv` with its stdout on a pipe (and its stdin, with `pipeStdin`; else /dev/null)
    /// and none of our other descriptors; its stderr is ours, or /dev/null with `discardStderr`.
    /// The caller reaps it. Throws GLib's sentence.
    public static func spawnWatched(_ argv: [String], environment: [String: String], pipeStdin: Bool = false,
                                    searchPath: Bool = false, discardStderr: Bool = false) throws(SpawnError) -> Child {
        var pid: GPid = 0, stdinFD: Int32 = -1, stdoutFD: Int32 = -1
        var error: UnsafeMutablePointer<GError>?
        let flags = GSpawnFlags(rawValue: G_SPAWN_DO_NOT_REAP_CHILD.rawValue | G_SPAWN_CLOEXEC_PIPES.rawValue
                                | (searchPath ? G_SPAWN_SEARCH_PATH.rawValue : 0)
                                | (discardStderr ? G_SPAWN_STDERR_TO_DEV_NULL.rawValue : 0))
        let started = withCStrings(argv) { cArgs in
            withCStrings(environment.map { $0.key + "=" + $0.value }) { cEnv in
                pipeStdin ? g_spawn_async_with_pipes(nil, cArgs, cEnv, flags, nil, nil, &pid, &stdinFD, &stdoutFD, nil, &error) != 0
                    : g_spawn_async_with_pipes(nil, cArgs, cEnv, flags, nil, nil, &pid, nil, &stdoutFD, nil, &error) != 0
            }
        }
        guard started else { throw SpawnError(message: message(of: &error)) }
        return Child(pid: pid, stdin: stdinFD, stdout: stdoutFD)
    }

    public struct SpawnError: Error {
        public var message: String
        package init(message: String) { self.message = message }
    }

    /// Runs `argv` (found on PATH) with `input` on its stdin and returns what it printed, at most
    /// `outputLimit` bytes of it, and how it ended. Its stderr is ours. Blocks until it exits (it
    /// is a menu a person answers).
    package static func runPiped(_ argv: [String], input: String, environment: [String: String]) throws(SpawnError) -> PipedOutcome {
        let child = try spawnWatched(argv, environment: environment, pipeStdin: true, searchPath: true)
        // A program that exits without reading its input must not kill us with SIGPIPE.
        let previous = signal(SIGPIPE, SIG_IGN)
        DescriptorOutput.writeAll(Array(input.utf8), to: child.stdin)
        close(child.stdin)
        signal(SIGPIPE, previous)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(child.stdout, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            // The rest is read and dropped, so the program never blocks on a full pipe.
            if output.count < outputLimit { output += buffer[0..<min(n, outputLimit - output.count)] }
        }
        close(child.stdout)
        var status: Int32 = 0
        while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
        g_spawn_close_pid(child.pid)
        return PipedOutcome(exit: ExitKind(waitStatus: status), output: String(decoding: output, as: UTF8.self))
    }

    static let outputLimit = 64 * 1024

    /// What one of our own programs (`Binaries.path(of:)`) printed, and whether it exited 0:
    /// `headlines doctor` asks `headlines-fetch` what only it can find out.
    public static func output(ofSibling name: String, _ arguments: [String], environment: [String: String]) -> (ok: Bool, text: String) {
        do {
            let outcome = try runPiped([Binaries.path(of: name)] + arguments, input: "", environment: environment)
            return (outcome.exit == .status(0), outcome.output.trimmed())
        } catch {
            return (false, "could not run \(name) (\(error.message)): reinstall headlines")
        }
    }

    package struct PipedOutcome {
        package var exit: ExitKind
        package var output: String
    }

    /// How a program ended: its exit status, or the signal that killed it.
    public enum ExitKind: Equatable, Sendable {
        case status(Int32), signal(Int32)

        /// From waitpid's status (WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import).
        init(waitStatus status: Int32) { self = status & 0x7f == 0 ? .status((status >> 8) & 0xff) : .signal(status & 0x7f) }
    }

    /// How `runBounded` ended: the program's own exit, or ours (`timedOut`, `tooLong`: killed).
    public enum BoundedEnd: Equatable, Sendable { case exited(ExitKind), timedOut, tooLong }

    /// Runs `argv` (found on PATH) with stdin on /dev/null and stderr on /dev/null, and reads its
    /// stdout, at most `outputLimit` bytes: a program that prints more is killed, and so is one
    /// still running after `timeout` (whatever it printed, it is not what was asked for). For a
    /// command whose output is a secret: nothing of it is logged, and nothing but stdout is read.
    /// Throws GLib's sentence when it does not start.
    public static func runBounded(_ argv: [String], environment: [String: String], timeout: Swift.Duration,
                                  outputLimit: Int) throws(SpawnError) -> (end: BoundedEnd, output: [UInt8]) {
        let child = try spawnWatched(argv, environment: environment, searchPath: true, discardStderr: true)
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var end: BoundedEnd?
        reading: while end == nil {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { end = .timedOut; break }
            var ready = pollfd(fd: child.stdout, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, milliseconds(left))
            if polled < 0 && errno != EINTR { break }
            guard polled > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(child.stdout, $0.baseAddress, $0.count) }
            switch n {
            case ..<0 where errno == EINTR || errno == EAGAIN: continue
            case ...0: break reading
            default:
                output += buffer[0..<n]
                if output.count > outputLimit { end = .tooLong }
            }
        }
        close(child.stdout)
        // Its stdout is closed; it may still run (or a child of its may hold the pipe): it has
        // until the deadline to exit.
        var status: Int32 = 0
        while end == nil {
            let reaped = waitpid(child.pid, &status, WNOHANG)
            if reaped == child.pid { end = .exited(ExitKind(waitStatus: status)); break }
            // Reaped by someone else: its status is lost, and not taken for a success.
            if reaped < 0 && errno != EINTR { end = .exited(.status(-1)); break }
            if clock.now >= deadline { end = .timedOut; break }
            usleep(10_000)
        }
        if end == .timedOut || end == .tooLong {
            kill(child.pid, SIGKILL)
            while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
        }
        g_spawn_close_pid(child.pid)
        return (end ?? .timedOut, output)
    }

    /// poll(2)'s timeout for `duration`, rounded up so that a wait never ends before it.
    private static func milliseconds(_ duration: Swift.Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }

    /// The NULL-terminated C array of `strings` for the length of `body`.
    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }

    package static func message(of error: inout UnsafeMutablePointer<GError>?) -> String {
        defer { g_clear_error(&error) }
        return error.map { String(cString: $0.pointee.message) } ?? "unknown error"
    }
}
