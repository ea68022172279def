import Foundation
import HeadlinesDesktop
import TestSupport
import XCTest

/// `HostClient` signals only a verified host: never a one-shot reloading under the lock, a stale
/// PID, another user's process or a process that is not `headlines`.
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

    /// A fake /proc entry for `pid`: its comm and its NUL-separated command line.
    private func fakeProc(_ pid: Int32, comm: String, argv: [String]) throws -> String {
        let root = cli.root.appendingPathComponent("proc")
        let dir = root.appendingPathComponent(String(pid))
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data((comm + "\n").utf8).write(to: dir.appendingPathComponent("comm"))
        try Data(argv.map { $0 + "\0" }.joined().utf8).write(to: dir.appendingPathComponent("cmdline"))
        return root.path
    }

    private func client(proc: String, userID: uid_t = getuid()) -> HostClient {
        return HostClient(lockPath: lockPath, procRoot: proc, userID: userID,
                          subcommand: { $0.last })
    }

    func testAVerifiedHostIsAskedToRefreshAndToReconfigure() throws {
        try holdLock(naming: 4242)
        let proc = try fakeProc(4242, comm: "headlines", argv: ["/usr/bin/headlines", "--config", "x.conf", "run"])
        XCTAssertEqual(client(proc: proc).holder(), .host(pid: 4242))
        XCTAssertEqual(client(proc: proc).holder(), .host(pid: 4242))
    }

    func testAOneShotHoldingTheLockIsNeverSignalled() throws {
        try holdLock(naming: 4243)
        let proc = try fakeProc(4243, comm: "headlines", argv: ["/usr/bin/headlines", "refresh"])
        XCTAssertEqual(client(proc: proc).holder(), .oneShot(pid: 4243, command: "refresh"))
    }

    func testAStaleForeignOrOtherUsersPIDIsNeverSignalled() throws {
        try holdLock(naming: 4244)
        // Stale: no such process
        let empty = try fakeProc(1, comm: "init", argv: ["/sbin/init"])
        XCTAssertEqual(client(proc: empty).holder(), .unverified(pid: 4244))
        // Foreign: this user's, but not headlines
        let foreign = try fakeProc(4244, comm: "sleep", argv: ["sleep", "run"])  // says run, but is not headlines
        XCTAssertEqual(client(proc: foreign).holder(), .unverified(pid: 4244))
        // Another user's headlines run
        let host = try fakeProc(4244, comm: "headlines", argv: ["headlines", "run"])
        XCTAssertEqual(client(proc: host, userID: getuid() + 1).holder(), .unverified(pid: 4244))
    }

    func testNoLockHolderMeansNoHost() throws {
        let proc = try fakeProc(4245, comm: "headlines", argv: ["headlines", "run"])
        // A file naming a live-looking host, but nobody holds the lock: a host that died.
        try FileManager.default.createDirectory(atPath: (lockPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try Data("4245\n".utf8).write(to: URL(fileURLWithPath: lockPath))
        XCTAssertEqual(client(proc: proc).holder(), .none)
    }

    /// The real binary: in a runtime folder others can write, a held lock naming a live process is
    /// not believed: `status` says why the folder is refused and never "running (pid N)".
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
        let refresh = try cli.run(["--config", config.path, "refresh"])
        XCTAssertEqual(refresh.status, 1)
        XCTAssertTrue(refresh.stderr.contains("open to other users"), refresh.stderr)
        XCTAssertTrue(sleeper.isRunning, "signalled through a folder that is not ours")
    }

    /// The real binary: a `sleep` of ours named in a held lock must survive `refresh`: refresh
    /// talks to a host over the bus and never signals whatever PID a lock names.
    func testRefreshDoesNotSignalAForeignProcessNamedByTheLock() throws {
        let sleeper = try BackgroundProcess(executable: URL(fileURLWithPath: "/bin/sleep"), arguments: ["30"], environment: [:])
        defer { _ = sleeper.kill() }
        try holdLock(naming: sleeper.pid)
        let config = try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(server.baseURL.appendingPathComponent("f.rss").absoluteString)\n")
        let refresh = try cli.run(["--config", config.path, "refresh"])
        XCTAssertEqual(refresh.status, 1, refresh.stdout + refresh.stderr)
        XCTAssertTrue(refresh.stderr.contains("not a `headlines run`"), refresh.stderr)
        XCTAssertNil(sleeper.waitForExit(timeout: 0.3), "sleep was signalled")
        XCTAssertTrue(sleeper.isRunning)
    }

    /// The real binary: with no host, a second `refresh` while an `i3blocks` one-shot reloads under
    /// the lock waits for it, and neither kills it nor reloads a second time.
    func testRefreshWaitsForAOneShotInsteadOfSignallingIt() throws {
        let rss = FixturePaths.data("feeds/sample-rss2.xml")
        server.route("/slow.rss", .trickle(status: 200, body: rss, bytesPerSecond: rss.count))  // a second under the lock
        let config = try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(server.baseURL.appendingPathComponent("slow.rss").absoluteString)\n")
        let oneShot = try BackgroundProcess(cli: cli, arguments: ["--config", config.path, "i3blocks"])
        defer { _ = oneShot.kill() }
        let observer = HostClient(lockPath: lockPath, subcommand: { $0.last })
        XCTAssertNotNil(waitUntil(timeout: 5) { if case .oneShot = observer.holder() { true } else { false } },
                        "the i3blocks one-shot never took the lock; it printed:\n\(oneShot.transcript)")

        let refresh = try cli.run(["--config", config.path, "refresh"])

        let exit = oneShot.waitForExit(timeout: 10)
        XCTAssertEqual(exit?.signalled, false, "the one-shot was killed; it printed:\n\(oneShot.transcript)")
        XCTAssertEqual(exit?.status, 0, oneShot.transcript)
        XCTAssertEqual(refresh.status, 0, refresh.stdout + refresh.stderr)
        XCTAssertTrue(refresh.stdout.contains("headlines i3blocks"), refresh.stdout)
        XCTAssertEqual(server.requests.filter { $0.path == "/slow.rss" }.count, 1, "refresh should not reload again")
    }
}

