import Foundation

/// Runs the built `headlines` executable the way a user would, but sealed off: its own HOME and XDG
/// folders in a fresh temporary directory, no session bus, no inherited API keys, and a timeout
/// that kills it and throws instead of hanging the test run.
public final class CLIRunner {
    /// The temporary root; everything the tool reads or writes lives under it.
    public let root: URL
    public let executable: URL
    /// A command every run of `headlines` goes through (`run` and `BackgroundProcess(cli:)`),
    /// `executable` then its arguments after it: empty runs it directly.
    public var launcher: [String] = []

    /// `unshare --user` as root, nothing otherwise: in a user namespace of its own, root is only
    /// the owner of its files, so a mode of 000 or 555 stops it as it stops any user; without it
    /// root reads and writes through every mode. A session bus refuses such a process (the uid
    /// it claims is not the one the bus sees), so a host started so runs without its interface.
    public static var fileModesBindEvenRoot: [String] { geteuid() == 0 ? ["/usr/bin/unshare", "--user", "--"] : [] }

    /// What one run printed and how it ended.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var elapsed: TimeInterval
        /// stderr's non-empty lines.
        public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
        public var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init() throws {
        executable = try Self.locateExecutable()
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("headlines-e2e-\(UUID().uuidString)", isDirectory: true)
        for dir in ["home", "config", "cache", "state", "runtime"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(dir), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
    }

    /// Removes the temporary root.
    /// Stops every process still running with this runner's folder on its command line (a host
    /// `headlines start` started in its own session outlives the command that started it), then
    /// removes the folder.
    public func cleanUp() {
        let marker = Data(root.path.utf8)
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), pid != getpid(),
                  let cmdline = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                  cmdline.range(of: marker) != nil else { continue }
            kill(pid, SIGKILL)
        }
        try? FileManager.default.removeItem(at: root)
    }

    public var configHome: URL { root.appendingPathComponent("config") }
    public var cacheHome: URL { root.appendingPathComponent("cache") }
    public var stateHome: URL { root.appendingPathComponent("state") }
    /// `$XDG_CACHE_HOME/headlines/headlines.json`.
    public var cacheFile: URL { cacheHome.appendingPathComponent("headlines/headlines.json") }
    /// `$XDG_STATE_HOME/headlines/status.json`.
    public var statusFile: URL { stateHome.appendingPathComponent("headlines/status.json") }
    /// The default config path, `$XDG_CONFIG_HOME/headlines/headlines.conf`.
    public var defaultConfigFile: URL { configHome.appendingPathComponent("headlines/headlines.conf") }

    /// Writes a config file (the default one unless `at` is given) and returns its path.
    @discardableResult
    public func writeConfig(_ text: String, at url: URL? = nil) throws -> URL {
        let target = url ?? defaultConfigFile
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: target)
        return target
    }

    /// The isolated environment every run starts from; `extra` adds to or overrides it.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment
        var env: [String: String] = [
            "PATH": inherited["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8",
            "HOME": root.appendingPathComponent("home").path,
            "XDG_CONFIG_HOME": configHome.path,
            "XDG_CACHE_HOME": cacheHome.path,
            "XDG_STATE_HOME": stateHome.path,
            "XDG_RUNTIME_DIR": root.appendingPathComponent("runtime").path,
            "DBUS_SESSION_BUS_ADDRESS": "disabled:",
            "TZ": "UTC",
        ]
        // `make tsan`: a sanitized `headlines` reports (and exits) the way the test process does.
        if let tsan = inherited["TSAN_OPTIONS"] { env["TSAN_OPTIONS"] = tsan }
        env.merge(extra) { _, new in new }
        return env
    }

    /// The host's reload child built beside `headlines`.
    public var reloadChild: URL { executable.deletingLastPathComponent().appendingPathComponent("headlines-reload") }

    /// Runs the reload child, `headlines-reload ARGS`, as the host does (the same environment;
    /// `input` on its stdin, as the host writes a sync token there), and waits for it as `run` does.
    public func reload(_ arguments: [String] = [], environment extra: [String: String] = [:],
                       input: Data? = nil, timeout: TimeInterval = 30) throws -> Result {
        try run(arguments, environment: extra, input: input, timeout: timeout, program: reloadChild)
    }

    /// Runs `headlines ARGS` (or `program ARGS`) and waits at most `timeout` seconds. `input`,
    /// when given, is its standard input (then closed), as the host writes a reload child's; else
    /// /dev/null.
    public func run(_ arguments: [String], environment extra: [String: String] = [:],
                    input: Data? = nil, timeout: TimeInterval = 30, program: URL? = nil) throws -> Result {
        let process = Process()
        let command = launchCommand(arguments, program: program ?? executable)
        process.executableURL = command.executable
        process.arguments = command.arguments
        process.environment = environment(extra)
        process.currentDirectoryURL = root
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = input.map { _ in Pipe() }
        process.standardInput = stdin ?? FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let stdout = PipeReader(out), stderr = PipeReader(err)
        let started = Date()
        try process.run()
        if let stdin, let input {
            // Small, so the pipe takes it whole; closed at once, as the host does.
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            _ = exited.wait(timeout: .now() + 5)
            throw Failure(description: "\((program ?? executable).lastPathComponent) \(arguments.joined(separator: " ")) did not finish within \(timeout) s and was killed; stderr so far: \(stderr.text())")
        }
        let elapsed = Date().timeIntervalSince(started)
        return Result(status: process.terminationStatus, stdout: stdout.text(), stderr: stderr.text(), elapsed: elapsed)
    }

    /// What starts `headlines ARGS` (or `program ARGS`): the program itself, or the launcher with
    /// it as an argument.
    public func launchCommand(_ arguments: [String], program: URL? = nil) -> (executable: URL, arguments: [String]) {
        let program = program ?? executable
        guard let first = launcher.first else { return (program, arguments) }
        return (URL(fileURLWithPath: first), Array(launcher.dropFirst()) + [program.path] + arguments)
    }

    /// Finds the `headlines` built alongside these tests: next to the test bundle first, then in
    /// `.build/<config>/` of the package this file belongs to. `HEADLINES_EXECUTABLE` overrides both.
    public static func locateExecutable() throws -> URL {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["HEADLINES_EXECUTABLE"] { candidates.append(URL(fileURLWithPath: path)) }
        var bundleDir = Bundle.main.bundleURL
        if bundleDir.pathExtension == "xctest" { bundleDir.deleteLastPathComponent() }
        candidates.append(bundleDir.appendingPathComponent("headlines"))
        if let exe = Bundle.main.executableURL { candidates.append(exe.deletingLastPathComponent().appendingPathComponent("headlines")) }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/headlines"))
        candidates.append(packageRoot.appendingPathComponent(".build/release/headlines"))
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) { return found }
        throw Failure(description: "the headlines executable was not found (looked at \(candidates.map(\.path).joined(separator: ", "))); run `swift build --build-tests` first")
    }
}

/// Drains a pipe on its own thread so a chatty child can never block on a full pipe.
private final class PipeReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var data = Data()

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread { [self] in
            let all = handle.readDataToEndOfFile()
            lock.withLock { data = all }
            done.signal()
        }.start()
    }

    /// Everything read, once the writer has closed (or after a short grace period).
    func text() -> String {
        _ = done.wait(timeout: .now() + 5)
        done.signal()
        return lock.withLock { String(decoding: data, as: UTF8.self) }
    }
}
