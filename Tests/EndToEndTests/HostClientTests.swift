import Foundation
import HeadlinesDesktop
import TestSupport
import XCTest

/// The commands reach the host on the session bus alone: whatever PID a lock file names is never
/// believed nor signalled, and with no bus they say so in one sentence naming `headlines run`.
final class HostClientTests: EndToEndTestCase {
    private var lockPath: String { cli.root.appendingPathComponent("runtime/headlines/host.lock").path }
    private var lockFD: Int32 = -1

    override func tearDown() {
        if lockFD >= 0 { close(lockFD); lockFD = -1 }
        super.tearDown()
    }

    /// Holds the lock from this process (flock is per open file) naming `pid`, as a holder would.
    private func holdLock(naming pid: Int32) throws {
        try FileManager.default.createDirectory(atPath: (lockPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        lockFD = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        XCTAssertEqual(flock(lockFD, LOCK_EX | LOCK_NB), 0)
        _ = "\(pid)\n".withCString { pwrite(lockFD, $0, strlen($0), 0) }
    }

    /// The real binary: in a runtime folder others can write, `status` says why the folder is
    /// refused and never "running (pid N)".
    func testStatusRefusesARuntimeFolderOthersCanUse() throws {
        let sleeper = try BackgroundProcess(executable: URL(fileURLWithPath: "/bin/sleep"), arguments: ["30"], environment: [:])
        defer { _ = sleeper.kill() }
        try holdLock(naming: sleeper.pid)
        let folder = (lockPath as NSString).deletingLastPathComponent
        XCTAssertEqual(chmod(folder, 0o777), 0)
        let config = try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(server.baseURL.appendingPathComponent("f.rss").absoluteString)\n")
        let status = try cli.run(["--config", config.path, "status"])
        XCTAssertEqual(status.status, 0, status.stdout + status.stderr)
        XCTAssertTrue(status.stdout.contains("\(folder) is open to other users (mode 0777): remove it or set XDG_RUNTIME_DIR to a folder of your own."),
                      status.stdout)
        XCTAssertFalse(status.stdout.contains("running (pid"), status.stdout)
        XCTAssertTrue(sleeper.isRunning)
    }

    /// The real binary with no session bus: each command that needs the host says so in one
    /// sentence naming `headlines run`, sends no request, and never signals the PID the lock names.
    func testWithNoBusEachHostCommandSaysSoAndSignalsNobody() throws {
        let sleeper = try BackgroundProcess(executable: URL(fileURLWithPath: "/bin/sleep"), arguments: ["30"], environment: [:])
        defer { _ = sleeper.kill() }
        try holdLock(naming: sleeper.pid)
        let config = try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(server.baseURL.appendingPathComponent("f.rss").absoluteString)\n[bar]\nlauncher = cat\n")
        for command in [["refresh"], ["next"], ["prev", "2"], ["open"], ["open", "--id", "0123456789abcdef"], ["menu"], ["mute", "x.example"]] {
            let result = try cli.run(["--config", config.path] + command)
            XCTAssertEqual(result.status, 1, "\(command): " + result.stdout + result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(command): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("no session bus") && result.stderr.contains("`headlines run`"), "\(command): \(result.stderr)")
        }
        XCTAssertEqual(server.requests.count, 0)
        XCTAssertNil(sleeper.waitForExit(timeout: 0.3), "sleep was signalled")
        XCTAssertTrue(sleeper.isRunning)
    }
}
