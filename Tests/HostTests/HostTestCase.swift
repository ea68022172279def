import Foundation
import TestSupport
import XCTest

/// What every host test shares: a loopback APITube, a sealed-off `headlines`, a config file, and
/// every background process it started, SIGKILLed in tearDown whatever the test did.
class HostTestCase: XCTestCase {
    static let apiKey = "sk-test-SECRET-4242"
    static let path = "/v1/news/top-headlines"

    var server: LoopbackHTTPServer!
    var cli: CLIRunner!
    /// The test's own session bus: the host owns its name there and the CLI reaches it there.
    var bus: PrivateBus!
    private var started: [BackgroundProcess] = []

    var fixture: Data { FixturePaths.data("apitube/top-headlines-fl.json") }

    override func setUpWithError() throws {
        server = LoopbackHTTPServer()
        try server.start()
        server.route(Self.path, .json(fixture))
        cli = try CLIRunner()
        // A bar or a command that finds no host has the bus start one, on this test's config.
        let host = cli.executable.deletingLastPathComponent().appendingPathComponent("headlines-host").path
        bus = try PrivateBus(folder: cli.root.appendingPathComponent("bus"),
                             activating: [host, "--from-bar", "--config", configFile.path],
                             environment: cli.environment(["APITUBE_API_KEY": Self.apiKey]))
    }

    override func tearDown() {
        for process in started { process.kill() }
        started = []
        server?.stop()
        bus?.stop()
        bus = nil
        cli?.cleanUp()
        server = nil
        cli = nil
    }

    // MARK: - Config

    /// The config every command of the test reads (passed with `--config`).
    var configFile: URL { cli.root.appendingPathComponent("host-test.conf") }

    /// Writes the test config: APITube on the loopback server with the given refresh settings.
    func writeConfig(interval: String, dailyBudget: Int, timeout: String = "10s", rotate: String? = nil) throws {
        var text = """
            [source]
            provider=apitube
            base-url=\(server.baseURL.absoluteString)
            timeout=\(timeout)

            [refresh]
            interval=\(interval)
            daily-budget=\(dailyBudget)

            """
        if let rotate { text += "\n[bar]\nrotate=\(rotate)\n" }
        try cli.writeConfig(text, at: configFile)
    }

    /// Writes the test config: the feeds at `paths` on the loopback server, notifications off.
    /// Returns its text.
    @discardableResult
    func writeFeedsConfig(_ paths: [String], interval: String = "1h", dailyBudget: Int = 20) throws -> String {
        let text = "[source]\nprovider=feeds\nfeeds=" + paths.map { server.baseURL.absoluteString + $0 }.joined(separator: " ")
            + "\ntimeout=10s\n[refresh]\ninterval=\(interval)\ndaily-budget=\(dailyBudget)\n[notify]\nenabled=false\n"
        try cli.writeConfig(text, at: configFile)
        return text
    }

    // MARK: - Processes

    var barBinary: URL { cli.executable.deletingLastPathComponent().appendingPathComponent("headlines-bar") }

    /// `headlines-bar ARGS --config FILE` to its end, in the test's environment plus `extra`: its stdout.
    func runBar(_ arguments: [String], extra: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = barBinary
        process.arguments = arguments + ["--config", configFile.path]
        process.environment = cli.environment(extra)
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    /// A browser that writes what it opens to `opened`, the default for http and https of every
    /// process of the test (the host opens what a click names): in the test's own data folder.
    /// The links the fake browser wrote to `opened`, once there are `count` whole lines (the
    /// shell creates the file before it writes the line): "" when they did not come in time.
    func browserOpened(_ opened: URL, count: Int = 1, timeout: TimeInterval = 10) -> String {
        var text = ""
        _ = waitUntil(timeout: timeout) {
            text = (try? String(contentsOf: opened, encoding: .utf8)) ?? ""
            return text.filter { $0 == "\n" }.count >= count
        }
        return text
    }

    /// `environmentTo`: where it also writes its whole environment, one variable a line.
    func installFakeBrowser(opened: URL, environmentTo: URL? = nil) throws -> [String: String] {
        let data = cli.root.appendingPathComponent("home/.local/share")
        let applications = data.appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        let script = cli.root.appendingPathComponent("fake-browser")
        let dump = environmentTo.map { "env >> \($0.path)\n" } ?? ""
        try "#!/bin/sh\n\(dump)echo \"$1\" >> \(opened.path)\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        try """
            [Desktop Entry]
            Type=Application
            Name=Fake Browser
            Exec=\(script.path) %u
            MimeType=x-scheme-handler/http;x-scheme-handler/https;
            """.write(to: applications.appendingPathComponent("fake-browser.desktop"), atomically: true, encoding: .utf8)
        try "[Default Applications]\nx-scheme-handler/http=fake-browser.desktop\nx-scheme-handler/https=fake-browser.desktop\n"
            .write(to: cli.configHome.appendingPathComponent("mimeapps.list"), atomically: true, encoding: .utf8)
        return [:]
    }


    /// Where `standIn` puts its stand-in child and the copy of the host that runs it.
    var bin: URL { cli.root.appendingPathComponent("bin") }

    /// Puts the shell `script` where a copy of the host (which finds its child beside itself)
    /// runs it as its reload child, `headlines-reload`; returns the copy's path.
    func standIn(_ script: String) throws -> URL {
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let child = bin.appendingPathComponent("headlines-reload")
        try ("#!/bin/sh\n" + script).write(to: child, atomically: true, encoding: .utf8)
        chmod(child.path, 0o755)
        let host = bin.appendingPathComponent("headlines-host")
        try FileManager.default.copyItem(at: cli.executable.deletingLastPathComponent().appendingPathComponent("headlines-host"),
                                         to: host)
        return host
    }

    /// `headlines run [--verbose] --config FILE` in the background, with the test key and `extra`.
    func startHost(verbose: Bool = false, extra: [String: String] = [:]) throws -> BackgroundProcess {
        try startBackground(["run"] + (verbose ? ["--verbose"] : []), extra: extra)
    }

    /// `headlines ARGS --config FILE` in the background, with the test key and `extra`; killed in tearDown.
    func startBackground(_ arguments: [String], extra: [String: String] = [:]) throws -> BackgroundProcess {
        let process = try BackgroundProcess(cli: cli, arguments: arguments + ["--config", configFile.path],
                                            environment: environment.merging(extra) { $1 })
        started.append(process)
        return process
    }

    /// `headlines ARGS --config FILE` to completion, with the test key.
    func run(_ arguments: [String], timeout: TimeInterval = 20) throws -> CLIRunner.Result {
        try cli.run(arguments + ["--config", configFile.path], environment: environment, timeout: timeout)
    }

    /// One reload by the reload child, `headlines-reload --config FILE`, as the host runs it.
    func reloadOnce(timeout: TimeInterval = 20) throws -> CLIRunner.Result {
        try cli.reload(["--config", configFile.path], environment: environment, timeout: timeout)
    }

    /// `headlines list --json` once the cache holds headlines: the reload child sends its report
    /// before it writes the cache, so the host's "reload ok" can come a moment before `list` sees
    /// the reload. The urls listed, and the last run's output.
    func listedAfterReload(timeout: TimeInterval = 10) throws -> (urls: [String], result: CLIRunner.Result) {
        var result = try run(["list", "--json"])
        var urls: [String] = []
        _ = waitUntil(timeout: timeout, poll: 0.05) {
            if let again = try? run(["list", "--json"]) { result = again }
            let items = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [[String: Any]] ?? []
            urls = items.compactMap { $0["url"] as? String }
            return !urls.isEmpty
        }
        return (urls, result)
    }

    /// The test key and the test's bus: what a host and the CLI of this test run with.
    var environment: [String: String] {
        ["APITUBE_API_KEY": Self.apiKey, "DBUS_SESSION_BUS_ADDRESS": bus.address]
    }

    /// Reload on the host's bus interface, as `gdbus call` would ask it; the reply's text.
    @discardableResult
    func reloadOverBus() throws -> String {
        let call = try bus.callHost("Reload", [""])
        XCTAssertEqual(call.status, 0, "gdbus call Reload: \(call.output)")
        return call.output
    }

    /// `headlines status --json`, decoded.
    func status() throws -> StatusReport {
        let result = try run(["status", "--json"])
        XCTAssertEqual(result.status, 0, "status --json failed: \(result.stderr)")
        return try JSONDecoder().decode(StatusReport.self, from: Data(result.stdout.utf8))
    }

    // MARK: - The server

    /// Requests the server has seen for the headlines path.
    var requestCount: Int { server.requests.filter { $0.path == Self.path }.count }

    /// Seconds until the server had seen `count` requests, or nil if it had not within `timeout`.
    @discardableResult
    func waitForRequests(_ count: Int, timeout: TimeInterval) -> TimeInterval? {
        waitUntil(timeout: timeout) { requestCount >= count }
    }

    // MARK: - Waiting on a host

    /// Waits for a line containing `text`; fails the test (with the transcript) and throws if none
    /// came, so that later steps that depend on it do not run.
    @discardableResult
    func expectLine(_ text: String, from process: BackgroundProcess, after mark: Int = 0, within timeout: TimeInterval,
                    file: StaticString = #filePath, line: UInt = #line) throws -> BackgroundProcess.Line {
        guard let found = process.waitForLine(containing: text, after: mark, timeout: timeout) else {
            XCTFail("no line containing \"\(text)\" within \(timeout) s from headlines \(process.arguments.joined(separator: " ")); it printed:\n\(process.transcript)",
                    file: file, line: line)
            throw Stop()
        }
        return found
    }

    /// Sends SIGTERM and returns how long the exit took and how it ended (nil exit: not within 5 s).
    func terminate(_ process: BackgroundProcess) -> (seconds: TimeInterval, exit: BackgroundProcess.Exit?) {
        let sent = Date()
        process.send(SIGTERM)
        let exit = process.waitForExit(timeout: 5)
        return (exit.map { $0.at.timeIntervalSince(sent) } ?? .infinity, exit)
    }

    /// Asserts a SIGTERM ends `process` with status 0 within one second.
    func assertStopsQuickly(_ process: BackgroundProcess, _ situation: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        let (seconds, exit) = terminate(process)
        guard let exit else {
            XCTFail("\(situation): the host was still running 5 s after SIGTERM; it printed:\n\(process.transcript)", file: file, line: line)
            return
        }
        XCTAssertFalse(exit.signalled, "\(situation): the host died of signal \(exit.status) instead of exiting", file: file, line: line)
        XCTAssertEqual(exit.status, 0, "\(situation): exit status after SIGTERM; it printed:\n\(process.transcript)", file: file, line: line)
        XCTAssertLessThanOrEqual(seconds, 1.0, "\(situation): the host took \(String(format: "%.2f", seconds)) s to exit after SIGTERM",
                                 file: file, line: line)
        XCTAssertFalse(process.lines(containing: "SIGTERM: stopping").isEmpty,
                       "\(situation): no \"SIGTERM: stopping\" line; it printed:\n\(process.transcript)", file: file, line: line)
    }

    /// Thrown after a failed expectation that later steps depend on.
    struct Stop: Error, CustomStringConvertible {
        var description: String { "stopped after the failure above" }
    }
}

/// The fields of `headlines status --json` these tests read.
struct StatusReport: Decodable {
    var host_running: Bool
    var reloads_last_24h: Int
    var daily_budget: Int
}
