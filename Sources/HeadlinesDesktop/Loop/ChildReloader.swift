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
    /// Starts a reload; `done` runs once, on the loop, with what it did. `allFeeds`: fetch every
    /// feed, not only those due (someone asked for this reload).
    func start(consecutiveFailures: Int, allFeeds: Bool, done: @escaping @GLibActor (ReloadReport) -> Void)
    /// Stops a running reload (the host is stopping).
    func cancel()
    /// True while a process of this reloader may still be writing the cache (a child started
    /// and not yet reaped): a change of the cache file then is its own write, already reported.
    var childMayBeWritingCache: Bool { get }
    /// Sends a sync service the read marks queued in its `read-marks.json`.
    func sendMarks()
}

extension HostReloader {
    public var childMayBeWritingCache: Bool { false }
    public func sendMarks() {}
}

/// Runs each reload in a short-lived child, `headlines-reload`, and reads its
/// `ReloadReport` from the child's stdout on the loop (g_unix_fd_add + g_child_watch), at most
/// `ChildSlots.limit` children at once across the host's widgets: libcurl,
/// libxml2 and every byte a server sends live and die in the child, so the resident host stays
/// small and has no thread pool. The API keys reach the child in its environment only.
@GLibActor
public final class ChildReloader: HostReloader {
    private let argv: [String]
    private let environment: [String: String]
    /// The child is killed after this long (its own requests time out well before).
    private let deadline: TimeInterval
    nonisolated static let outputLimit = ReloadReport.maxBytes

    private var running: ChildRun?
    public var childMayBeWritingCache: Bool { running != nil }
    /// Waiting in `slots` for its turn to start a child.
    private var queued = false
    private let slots: ChildSlots
    /// One child's work: a reload, or only the read marks a sync service is owed.
    private struct Job {
        var consecutiveFailures = 0
        var allFeeds = false
        var marksOnly = false
        /// The second try of a reload whose sign-in token was refused: never tried a third time.
        var isRenewal = false
        var done: @GLibActor (ReloadReport) -> Void
    }
    /// A reload asked for while the last child, its report already delivered, has not exited.
    private var pending: Job?
    /// A sync service's sign-in token (`LABEL<TAB>TOKEN`, as the child hands it back), kept in
    /// this process's memory only and written to each child's standard input: never a file, an
    /// argument or the environment.
    private var syncToken: String?

    /// `argv`: the fetch command without `--failures`; `environment`: the child's whole
    /// environment, API keys included.
    public init(argv: [String], environment: [String: String], deadline: TimeInterval, slots: ChildSlots = .shared) {
        self.slots = slots
        self.argv = argv
        self.environment = environment
        self.deadline = deadline
    }

    public func start(consecutiveFailures: Int, allFeeds: Bool, done: @escaping @GLibActor (ReloadReport) -> Void) {
        run(Job(consecutiveFailures: consecutiveFailures, allFeeds: allFeeds, done: done))
    }

    /// Sends the queued read marks now, in a child of their own, unless a child is running or
    /// waiting: every reload child sends them first, and a marks child follows one that had
    /// started before the mark was queued.
    public func sendMarks() {
        let job = Job(marksOnly: true, done: { _ in })
        guard running == nil, !queued else {
            if pending == nil { pending = job }
            return
        }
        run(job)
    }

    private func run(_ job: Job) {
        // One child at a time: the next one starts when the last has exited (its report may
        // have come first; see ChildRun). A reload asked for replaces a waiting marks child:
        // it sends the marks too.
        guard running == nil, !queued else {
            if !job.marksOnly || pending == nil { pending = job }
            return
        }
        queued = true
        slots.request(for: self) { [weak self] in
            guard let self, self.queued else { return false }
            self.queued = false
            return self.spawn(job)
        }
    }

    /// Starts the child, once `slots` gave this reload its turn; false when it could not.
    private func spawn(_ job: Job) -> Bool {
        let full = argv + ["--failures", String(job.consecutiveFailures)] + (job.allFeeds ? ["--all-feeds"] : [])
            + (job.marksOnly ? ["--marks-only"] : [])
        // The child gets a pipe as stdin holding the sync token's line (empty for none), and
        // none of the host's other descriptors.
        let child: ProcessLauncher.Child
        do { child = try ProcessLauncher.spawnWatched(full, environment: environment, pipeStdin: true) } catch {
            job.done(Self.failure("could not start \(full[0]) (\(error.message)); reinstall headlines or check that it is beside headlines-host"))
            return false
        }
        DescriptorOutput.writeAll(Array(((syncToken ?? "") + "\n").utf8), to: child.stdin)
        close(child.stdin)
        let pid = child.pid, stdoutFD = child.stdout
        let deliver: @GLibActor (ReloadReport) -> Void = { [weak self] report in
            guard let self else { return job.done(report) }
            if let token = report.syncToken { self.syncToken = token.isEmpty ? nil : token }
            // The kept token was refused: one more child signs in afresh, and its report is the
            // reload's (at most one sign-in per reload, never a loop).
            if report.syncToken == "", report.failure != nil, !job.isRenewal, !job.marksOnly {
                var again = job
                again.isRenewal = true
                self.pending = again
                return
            }
            job.done(report)
        }
        // Held until the child has exited, so its slot is always given back.
        let run = ChildRun(pid: pid, deliver: deliver) { [self] in
            self.slots.release()
            self.running = nil
            if let next = self.pending {
                self.pending = nil
                self.run(next)
            } else {
                // The reload is over (its report handled, the child gone): the host goes idle.
                FreedMemory.giveBack()
            }
        }
        running = run
        run.watch(stdout: stdoutFD, deadline: deadline)
        return true
    }

    /// The host is stopping: the running child is killed and reaped at once, so the temporary
    /// file of a write it was in the middle of can be swept (its PID no longer runs).
    public func cancel() {
        pending = nil
        if queued { slots.withdraw(self) }
        queued = false
        guard let run = running else { return }
        kill(run.pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(run.pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// The report in a child's whole output, nil when it holds none (cut short, or not one).
    nonisolated static func report(in output: [UInt8]) -> ReloadReport? {
        guard !output.isEmpty, var report = try? StateJSONDecoder.headlines().decode(ReloadReport.self, from: Data(output)) else { return nil }
        report.headlines = report.headlines.bounded()
        return report
    }

    nonisolated static func report(from output: [UInt8], status: Int32) -> ReloadReport {
        if status == 0, let report = report(in: output) { return report }
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
/// keep their bytes behind a mutex (they are not actor code). The report is handed to the loop's
/// actor once: as soon as the child's stdout ends with a whole report (the child closes it right
/// after writing one, so the bars need not wait for it to write its cache and exit), else when the child has been reaped, with what its exit status says. `ended` runs
/// once the child has been reaped.
final class ChildRun: Sendable {
    let pid: GPid
    private let deliver: @Sendable @GLibActor (ReloadReport) -> Void
    private let ended: @Sendable @GLibActor () -> Void
    private struct State {
        var output: [UInt8] = []
        var outputDone = false
        var delivered = false
        var status: Int32?
        var timer: UInt32 = 0
    }
    private let state = Mutex(State())

    init(pid: GPid, deliver: @escaping @Sendable @GLibActor (ReloadReport) -> Void,
         ended: @escaping @Sendable @GLibActor () -> Void) {
        self.pid = pid
        self.deliver = deliver
        self.ended = ended
    }

    func watch(stdout fd: Int32, deadline: TimeInterval) {
        _ = g_unix_set_fd_nonblocking(fd, 1, nil)
        let reader = Unmanaged.passRetained(self).toOpaque()
        g_unix_fd_add_full(G_PRIORITY_DEFAULT, fd, GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue),
                           { fd, _, data in
            Unmanaged<ChildRun>.fromOpaque(data!).takeUnretainedValue().readable(fd) ? 1 : 0
        }, reader, { data in Unmanaged<ChildRun>.fromOpaque(data!).release() })
        let watcher = Unmanaged.passRetained(self).toOpaque()
        g_child_watch_add_full(G_PRIORITY_DEFAULT, pid, { _, status, data in
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
        let output = state.withLock { s -> [UInt8] in s.outputDone = true; return s.status == nil ? s.output : [] }
        // A whole report: the child has nothing more to say; show it now.
        if let report = ChildReloader.report(in: output) { hand(report) } else { finishIfDone() }
        return false
    }

    private func exited(_ status: Int32) {
        // The deadline holds until the exit, also after an early report: a child that hangs
        // after it would otherwise hold up every later reload.
        let timer = state.withLock { s -> UInt32 in s.status = status; return s.timer }
        MainLoop.cancel(timer)
        finishIfDone()
        let ended = self.ended
        Task { @GLibActor in ended() }
    }

    /// The child has exited and its output has ended: the report, or why there is none.
    private func finishIfDone() {
        let finished: (output: [UInt8], status: Int32)? = state.withLock { s in
            guard s.outputDone, !s.delivered, let status = s.status else { return nil }
            return (s.output, status)
        }
        guard let finished else { return }
        hand(ChildReloader.report(from: finished.output, status: finished.status))
    }

    private func hand(_ report: ReloadReport) {
        let first = state.withLock { s -> Bool in
            guard !s.delivered else { return false }
            s.delivered = true
            s.output = []
            return true
        }
        guard first else { return }
        let deliver = self.deliver
        Task { @GLibActor in deliver(report) }
    }
}
