import CGLibNotify
import FoundationEssentials
import HeadlinesCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// How the host reloads: one reload at a time, answered once on the loop with the reload's report.
@GLibActor
public protocol HostReloader: AnyObject {
    /// Starts a reload; `done` runs once, on the loop, with what it did.
    func start(consecutiveFailures: Int, done: @escaping @GLibActor (ReloadReport) -> Void)
    /// Stops a running reload (the host is stopping).
    func cancel()
}

/// Runs each reload in a short-lived child, `headlines fetch --for-host`, and reads its
/// `ReloadReport` from the child's stdout on the loop (g_unix_fd_add + g_child_watch): libcurl,
/// libxml2 and every byte a server sends live and die in the child, so the resident host stays
/// small and has no thread pool. The API keys reach the child in its environment only.
@GLibActor
public final class ChildReloader: HostReloader {
    private let argv: [String]
    private let environment: [String]
    /// The child is killed after this long (its own requests time out well before).
    private let deadline: TimeInterval
    /// The report is small (the headlines once); anything longer is not a report.
    nonisolated static let outputLimit = 16 << 20

    private var running: ChildRun?

    /// `argv`: the fetch command without `--failures`; `environment`: the child's whole
    /// environment as `NAME=value`.
    public init(argv: [String], environment: [String: String], deadline: TimeInterval) {
        self.argv = argv
        self.environment = environment.map { "\($0.key)=\($0.value)" }
        self.deadline = deadline
    }

    public func start(consecutiveFailures: Int, done: @escaping @GLibActor (ReloadReport) -> Void) {
        guard running == nil else { return }
        let full = argv + ["--failures", String(consecutiveFailures)]
        var cArgs: [UnsafeMutablePointer<CChar>?] = full.map { strdup($0) } + [nil]
        var cEnv: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) }; cEnv.forEach { free($0) } }
        var pid: GPid = 0
        var stdoutFD: Int32 = -1
        var error: UnsafeMutablePointer<GError>?
        let flags = GSpawnFlags(rawValue: G_SPAWN_DO_NOT_REAP_CHILD.rawValue | G_SPAWN_CLOEXEC_PIPES.rawValue)
        guard g_spawn_async_with_pipes(nil, &cArgs, &cEnv, flags, nil, nil, &pid, nil, &stdoutFD, nil, &error) != 0 else {
            let why = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            done(Self.failure("could not start \(full[0]) (\(why)); reinstall headlines or check that it is beside headlines-host"))
            return
        }
        let run = ChildRun(pid: pid) { [weak self] report in
            self?.running = nil
            done(report)
        }
        running = run
        run.watch(stdout: stdoutFD, deadline: deadline)
    }

    /// The host is stopping: SIGTERM to a running child, then up to 2 s for it to die, so the
    /// temporary file of a write it was in the middle of can be swept (its PID no longer runs).
    public func cancel() {
        guard let run = running else { return }
        kill(run.pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<100 {
            let reaped = waitpid(run.pid, &status, WNOHANG)
            if reaped == run.pid || reaped < 0 { return }
            usleep(20_000)
        }
    }

    nonisolated static func report(from output: [UInt8], status: Int32) -> ReloadReport {
        if status == 0, let report = try? StateJSONDecoder.headlines().decode(ReloadReport.self, from: Data(output)) {
            return report
        }
        let how: String
        if (status & 0x7f) != 0 { how = "was killed by signal \(status & 0x7f)" } else { how = "exited with status \((status >> 8) & 0xff)" }
        return failure("the fetch process \(how) without a report; run `headlines fetch` to see why")
    }

    nonisolated static func failure(_ detail: String) -> ReloadReport {
        let sentence = "The reload failed: " + detail + "."
        return ReloadReport(headlines: [], fetchedAt: nil,
                            failure: RefreshFailure(error: .unreachable(detail: detail), message: sentence), requestsSent: 1)
    }
}

/// One running fetch child. GLib calls the fd and child-watch callbacks on the loop thread; they
/// keep their bytes behind a mutex (they are not actor code) and hand the finished report to
/// the loop's actor once, when both the output has ended and the child has been reaped.
final class ChildRun: Sendable {
    let pid: GPid
    private let deliver: @Sendable @GLibActor (ReloadReport) -> Void
    private struct State {
        var output: [UInt8] = []
        var outputDone = false
        var status: Int32?
        var timer: UInt32 = 0
    }
    private let state = Mutex(State())

    init(pid: GPid, deliver: @escaping @Sendable @GLibActor (ReloadReport) -> Void) {
        self.pid = pid
        self.deliver = deliver
    }

    func watch(stdout fd: Int32, deadline: TimeInterval) {
        _ = g_unix_set_fd_nonblocking(fd, 1, nil)
        let reader = Unmanaged.passRetained(self).toOpaque()
        g_unix_fd_add_full(G_PRIORITY_DEFAULT, fd, GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue),
                           { fd, _, data in
            Unmanaged<ChildRun>.fromOpaque(data!).takeUnretainedValue().readable(fd) ? 1 : 0
        }, reader, { data in Unmanaged<ChildRun>.fromOpaque(data!).release() })
        let watcher = Unmanaged.passRetained(self).toOpaque()
        g_child_watch_add_full(G_PRIORITY_DEFAULT, pid, { pid, status, data in
            g_spawn_close_pid(pid)
            Unmanaged<ChildRun>.fromOpaque(data!).takeUnretainedValue().exited(status)
        }, watcher, { data in Unmanaged<ChildRun>.fromOpaque(data!).release() })
        let pid = self.pid
        // Past its own timeouts the child is stuck: kill it; its exit then ends the reload.
        let timer = MainLoop.after(deadline) { kill(pid, SIGKILL) }
        state.withLock { $0.timer = timer }
    }

    /// Reads what the child wrote; false (remove the source) when its stdout has ended.
    private func readable(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                let over = state.withLock { s -> Bool in
                    if s.output.count + n > ChildReloader.outputLimit { s.output = []; return true }
                    s.output += buffer[0..<n]
                    return false
                }
                if over { kill(pid, SIGKILL); break }
                continue
            }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { return true }
            break
        }
        close(fd)
        state.withLock { $0.outputDone = true }
        finishIfDone()
        return false
    }

    private func exited(_ status: Int32) {
        state.withLock { $0.status = status }
        finishIfDone()
    }

    private func finishIfDone() {
        let finished: (output: [UInt8], status: Int32, timer: UInt32)? = state.withLock { s in
            guard s.outputDone, let status = s.status else { return nil }
            defer { s.output = [] }
            return (s.output, status, s.timer)
        }
        guard let finished else { return }
        MainLoop.cancel(finished.timer)
        let report = ChildReloader.report(from: finished.output, status: finished.status)
        let deliver = self.deliver
        Task { @GLibActor in deliver(report) }
    }
}
