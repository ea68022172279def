import Foundation
import HeadlinesCore
import HeadlinesDesktop
import XCTest

/// `HostClient` tells a host (`headlines-host`, or `headlines run`, in /proc) from a one-shot reload
/// (another `headlines` subcommand) and from a PID that is not ours, and trusts nothing in a
/// runtime folder that is not ours.
final class HostClientRoleTests: XCTestCase {
    private var root = ""
    private var folder: String { root + "/run/headlines" }
    private var lockPath: String { folder + "/host.lock" }
    private var lock: HostLock?

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "host-client-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDown() {
        lock = nil  // closes the descriptor, releasing the lock
        _ = try? FileManager.default.removeItem(atPath: root)
    }

    /// Holds the lock from this process; /proc is faked for this PID.
    private func hold(comm: String, argv: [String]) throws -> String {
        let held = HostLock(path: lockPath)
        XCTAssertTrue(try held.acquire())
        lock = held
        return try fakeProc(comm: comm, argv: argv)
    }

    /// /proc as a test wants this process to look.
    private func fakeProc(comm: String, argv: [String]) throws -> String {
        let proc = root + "/proc"
        let dir = proc + "/\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data((comm + "\n").utf8).write(to: URL(fileURLWithPath: dir + "/comm"))
        try Data(argv.map { $0 + "\0" }.joined().utf8).write(to: URL(fileURLWithPath: dir + "/cmdline"))
        return proc
    }

    private func client(_ proc: String) -> HostClient {
        return HostClient(lockPath: lockPath, procRoot: proc, subcommand: { $0.last })
    }

    func testAnotherSubcommandHoldingTheLockIsAOneShot() throws {
        let proc = try hold(comm: "headlines", argv: ["headlines", "i3blocks"])
        XCTAssertEqual(client(proc).holder(), .oneShot(pid: getpid(), command: "i3blocks"))
        let refresh = try fakeProc(comm: "headlines", argv: ["headlines", "refresh"])
        XCTAssertEqual(client(refresh).holder(), .oneShot(pid: getpid(), command: "refresh"))
    }

    func testTheResidentHostBinaryAndHeadlinesRunAreHosts() throws {
        let proc = try hold(comm: "headlines-host", argv: ["/usr/libexec/headlines/headlines-host"])
        XCTAssertEqual(client(proc).holder(), .host(pid: getpid()))
        let run = try fakeProc(comm: "headlines", argv: ["headlines", "run"])
        XCTAssertEqual(client(run).holder(), .host(pid: getpid()))
    }

    func testAHolderThatProcSaysIsNotOursIsUnverified() throws {
        let proc = try hold(comm: "bash", argv: ["bash", "run"])
        XCTAssertEqual(client(proc).holder(), .unverified(pid: getpid()))
    }

    func testNothingIsSignalledThroughAFolderOthersCanUse() throws {
        let proc = try hold(comm: "headlines-host", argv: ["headlines-host"])
        XCTAssertEqual(chmod(folder, 0o777), 0)
        guard case let .refused(sentence) = client(proc).holder() else { return XCTFail("signalled or not refused") }
        XCTAssertEqual(sentence, "\(folder) is open to other users (mode 0777): remove it or set XDG_RUNTIME_DIR to a folder of your own.")
    }

    func testALinkedLockIsRefused() throws {
        try RuntimeFolder.ensurePrivate(folder)
        let elsewhere = root + "/elsewhere.lock"
        _ = FileManager.default.createFile(atPath: elsewhere, contents: Data("1 host\n".utf8), attributes: [.posixPermissions: 0o600])
        XCTAssertEqual(symlink(elsewhere, lockPath), 0)
        guard case .refused = client(root + "/proc").holder() else { return XCTFail("a linked lock was trusted") }
    }

    func testNoFolderYetMeansNoHostAndCreatesNothing() {
        XCTAssertEqual(client(root + "/proc").holder(), .none)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder))
    }
}

