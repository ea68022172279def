import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process that keeps running while a test watches it: `headlines run`, or a `refresh`
/// whose timing matters. Every stdout and stderr line is collected as it arrives, with the time it
/// was read; the test can wait for a line, send signals and wait for the exit, each with a timeout.
/// A process still running when this object goes away (or on `kill()`) gets SIGKILL, so no test
/// ever leaves one behind.
///
/// Threads: one reader thread per pipe; Foundation calls the termination handler on a thread of
/// its own. All shared state is behind `state.condition`, which is broadcast on every new line,
/// end of stream and exit.
public final class BackgroundProcess: @unchecked Sendable {
    public enum Stream: String, Sendable { case stdout, stderr }

    /// One line as it was read.
    public struct Line: Sendable, CustomStringConvertible {
        /// Position among all collected lines (both streams), for `after:` marks.
        public var index: Int
        public var stream: Stream
        public var text: String
        public var at: Date
        public var description: String { "[\(stream.rawValue) +\(String(format: "%.3f", at.timeIntervalSince1970))] \(text)" }
    }

    /// How the process ended.
    public struct Exit: Sendable, Equatable {
        /// The exit status, or the signal number when `signalled`.
        public var status: Int32
        public var signalled: Bool
        public var at: Date
    }

    public let arguments: [String]
    public let pid: Int32
    public let startedAt: Date
    private let process: Process
    private let state: State

    public init(executable: URL, arguments: [String], environment: [String: String], currentDirectory: URL? = nil) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let state = State()
        process.terminationHandler = { finished in
            let exit = Exit(status: finished.terminationStatus,
                            signalled: finished.terminationReason == .uncaughtSignal, at: Date())
            state.update { $0.exit = exit }
        }
        try process.run()
        self.process = process
        self.state = state
        self.arguments = arguments
        self.pid = process.processIdentifier
        self.startedAt = Date()
        Self.read(out.fileHandleForReading, as: .stdout, into: state)
        Self.read(err.fileHandleForReading, as: .stderr, into: state)
    }

    /// Starts `headlines ARGS` in `cli`'s sealed-off environment (plus `extra`), in its root folder.
    public convenience init(cli: CLIRunner, arguments: [String], environment extra: [String: String] = [:]) throws {
        let command = cli.launchCommand(arguments)
        try self.init(executable: command.executable, arguments: command.arguments, environment: cli.environment(extra),
                      currentDirectory: cli.root)
    }

    deinit { kill() }

    // MARK: - Lines

    /// Every line so far, both streams, in arrival order.
    public var lines: [Line] { state.read { $0.lines } }

    /// How many lines so far: pass it as `after:` to wait only for lines still to come.
    public var mark: Int { state.read { $0.lines.count } }

    /// The lines so far that contain `text`.
    public func lines(containing text: String, stream: Stream? = nil, after mark: Int = 0) -> [Line] {
        lines.filter { $0.index >= mark && (stream == nil || $0.stream == stream) && $0.text.contains(text) }
    }

    /// Everything printed so far, one line each, for failure messages.
    public var transcript: String {
        let all = lines
        guard !all.isEmpty else { return "(no output)" }
        return all.map { "\($0.stream == .stderr ? "2>" : "1>") \($0.text)" }.joined(separator: "\n")
    }

    /// Waits up to `timeout` seconds for a line at position `after` or later that satisfies
    /// `predicate`. nil when none came in time or the process ended without printing one.
    public func waitForLine(after mark: Int = 0, stream: Stream? = nil, timeout: TimeInterval,
                            where predicate: (String) -> Bool) -> Line? {
        let deadline = Date().addingTimeInterval(timeout)
        var next = mark
        state.condition.lock()
        defer { state.condition.unlock() }
        while true {
            let lines = state.value.lines
            while next < lines.count {
                let line = lines[next]
                next += 1
                if stream == nil || line.stream == stream, predicate(line.text) { return line }
            }
            if state.value.exit != nil && state.value.streamsOpen == 0 { return nil }
            if !state.condition.wait(until: deadline) { 
                // One last look at lines that arrived with the timeout.
                return state.value.lines.dropFirst(next).first { (stream == nil || $0.stream == stream) && predicate($0.text) }
            }
        }
    }

    /// `waitForLine` for a line containing `text`.
    public func waitForLine(containing text: String, after mark: Int = 0, stream: Stream? = nil,
                            timeout: TimeInterval) -> Line? {
        waitForLine(after: mark, stream: stream, timeout: timeout) { $0.contains(text) }
    }

    // MARK: - Signals and exit

    /// True until the process has exited and been reaped.
    public var isRunning: Bool { state.read { $0.exit == nil } }

    /// How it ended, if it has.
    public var exit: Exit? { state.read { $0.exit } }

    /// Sends `signal` unless the process has already ended (never to a reaped, possibly reused PID).
    @discardableResult
    public func send(_ signal: Int32) -> Bool {
        guard isRunning else { return false }
        return Glibc.kill(pid, signal) == 0
    }

    /// Waits up to `timeout` seconds for the exit, then up to one more second for the last output.
    public func waitForExit(timeout: TimeInterval) -> Exit? {
        let deadline = Date().addingTimeInterval(timeout)
        state.condition.lock()
        defer { state.condition.unlock() }
        while state.value.exit == nil {
            if !state.condition.wait(until: deadline) { break }
        }
        guard let exit = state.value.exit else { return nil }
        let drained = Date().addingTimeInterval(1)
        while state.value.streamsOpen > 0, state.condition.wait(until: drained) {}
        return exit
    }

    /// SIGKILL if still running, then waits (up to five seconds) for the exit. Safe to call twice.
    @discardableResult
    public func kill() -> Exit? {
        if isRunning { _ = Glibc.kill(pid, SIGKILL) }
        return waitForExit(timeout: 5)
    }

    // MARK: - Plumbing

    private struct Value {
        var lines: [Line] = []
        var exit: Exit?
        var streamsOpen = 2
    }

    private final class State: @unchecked Sendable {
        let condition = NSCondition()
        var value = Value()

        func update(_ body: (inout Value) -> Void) {
            condition.lock()
            body(&value)
            condition.broadcast()
            condition.unlock()
        }

        func read<T>(_ body: (Value) -> T) -> T {
            condition.lock()
            defer { condition.unlock() }
            return body(value)
        }
    }

    /// Reads `handle` on its own thread until end of file, splitting it into timestamped lines.
    private static func read(_ handle: FileHandle, as stream: Stream, into state: State) {
        let fd = handle.fileDescriptor
        let thread = Thread {
            var pending = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            func emit(_ bytes: Data) {
                var text = String(decoding: bytes, as: UTF8.self)
                if text.hasSuffix("\r") { text.removeLast() }
                let now = Date()
                state.update { $0.lines.append(Line(index: $0.lines.count, stream: stream, text: text, at: now)) }
            }
            while true {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                pending.append(contentsOf: buffer[0..<n])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    emit(pending.subdata(in: pending.startIndex..<newline))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            if !pending.isEmpty { emit(pending) }
            state.update { $0.streamsOpen -= 1 }
            withExtendedLifetime(handle) {}
        }
        thread.name = "BackgroundProcess.\(stream.rawValue)"
        thread.start()
    }
}

/// Polls `condition` every 10 ms for up to `timeout` seconds. Returns the seconds it took to
/// become true, or nil if it never did.
@discardableResult
public func waitUntil(timeout: TimeInterval, poll: TimeInterval = 0.01, _ condition: () -> Bool) -> TimeInterval? {
    let started = Date()
    while true {
        if condition() { return Date().timeIntervalSince(started) }
        if Date().timeIntervalSince(started) > timeout { return nil }
        Thread.sleep(forTimeInterval: poll)
    }
}
