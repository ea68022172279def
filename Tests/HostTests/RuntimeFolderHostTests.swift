import Foundation
import TestSupport
import XCTest

/// The running host and `$XDG_RUNTIME_DIR/headlines`, on real processes: the folder removed under
/// it comes back with the same host's lock, and a folder or lock that is not ours is refused in
/// one sentence, touching nothing and opening nothing it holds.
final class RuntimeFolderHostTests: HostTestCase {
    private var folder: URL { cli.root.appendingPathComponent("runtime/headlines") }
    private var lockPath: String { folder.appendingPathComponent("host.lock").path }
    private var heldLock: Int32 = -1

    override func tearDown() {
        if heldLock >= 0 { close(heldLock); heldLock = -1 }
        super.tearDown()
    }

    /// The PID the lock file names, when someone holds it.
    private func lockHolder() -> Int32? {
        let fd = open(lockPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard flock(fd, LOCK_SH | LOCK_NB) != 0 else { flock(fd, LOCK_UN); return nil }
        let text = (try? String(contentsOfFile: lockPath, encoding: .utf8)) ?? ""
        return Int32(text.split(separator: " ").first?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
    }

    private func mode(_ path: String) -> mode_t {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & 0o7777 : 0
    }

    func testARemovedRuntimeFolderComesBackHeldByTheSameHostAndASecondHostStillStepsAside() throws {
        try writeConfig(interval: "1h", dailyBudget: 48)
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)
        XCTAssertEqual(lockHolder(), host.pid)

        // The folder removed under the running host: renamed away first, so that it is gone in one
        // step (an rm -rf that the host's new lock file overtakes leaves the folder, a case of its own).
        let gone = cli.root.appendingPathComponent("runtime/gone")
        XCTAssertEqual(rename(folder.path, gone.path), 0)
        try FileManager.default.removeItem(at: gone)
        XCTAssertNotNil(waitUntil(timeout: 10) { self.lockHolder() == host.pid },
                        "the folder did not come back with the host's lock; it printed:\n\(host.transcript)")
        XCTAssertEqual(mode(folder.path), 0o700)

        // A second host with no session bus (where the lock alone decides) exits, naming the first
        let second = try BackgroundProcess(cli: cli, arguments: ["run", "--config", configFile.path],
                                           environment: ["APITUBE_API_KEY": Self.apiKey])
        defer { second.kill() }
        try expectLine("another host (pid \(host.pid))", from: second, within: 10)
        XCTAssertNotNil(second.waitForExit(timeout: 10), "the second host still runs:\n\(second.transcript)")
        XCTAssertEqual(lockHolder(), host.pid)

        // and a refresh reloads once: one host asks the server, not two
        let before = requestCount
        let refresh = try run(["refresh"])
        XCTAssertEqual(refresh.status, 0, refresh.stderr)
        XCTAssertNotNil(waitForRequests(before + 1, timeout: 10))
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(requestCount, before + 1, "one refresh made \(requestCount - before) requests")
        assertStopsQuickly(host, "after the folder came back")
    }

    func testALinkedHostLockIsRefusedInOneSentenceAndItsTargetKept() throws {
        try writeConfig(interval: "1h", dailyBudget: 48)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let target = cli.root.appendingPathComponent("precious")
        try Data("precious bytes\n".utf8).write(to: target)
        XCTAssertEqual(symlink(target.path, lockPath), 0)

        let host = try startHost()
        let exit = host.waitForExit(timeout: 10)
        XCTAssertEqual(exit?.status, 1, "the host did not refuse; it printed:\n\(host.transcript)")
        let said = host.lines(containing: "symbolic link")
        XCTAssertEqual(said.count, 1, host.transcript)
        XCTAssertTrue(said.first?.text.contains("host.lock is a symbolic link, which headlines never follows there: remove it.") == true,
                      host.transcript)
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "precious bytes\n")
        var st = stat()
        XCTAssertEqual(lstat(lockPath, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFLNK, "host.lock is no longer the link")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("bar").path), "bar lines published beside the link")
        XCTAssertEqual(requestCount, 0)
    }

    /// Another user made the folder first (chowned to nobody when root, else left open to others),
    /// holds its lock and planted a bar file with their link.
    func testAFolderAnotherUserMadeIsRefusedAndNoClickOpensItsLink() throws {
        try writeConfig(interval: "1h", dailyBudget: 48)
        let bar = folder.appendingPathComponent("bar")
        try FileManager.default.createDirectory(at: bar, withIntermediateDirectories: true)
        try Data("0123456789abcdef\nPlanted https://planted.example/evil\nPlanted\n#FFFFFF\n".utf8)
            .write(to: bar.appendingPathComponent("i3blocks-keyed"))
        try Data("1 host\n".utf8).write(to: URL(fileURLWithPath: lockPath))
        heldLock = open(lockPath, O_RDWR | O_CLOEXEC)
        XCTAssertEqual(flock(heldLock, LOCK_EX | LOCK_NB), 0)
        let refusal: String
        if getuid() == 0 {
            for path in [folder.path, bar.path, bar.appendingPathComponent("i3blocks-keyed").path, lockPath] {
                XCTAssertEqual(chown(path, 65534, 65534), 0, path)
            }
            XCTAssertEqual(chmod(folder.path, 0o755), 0)
            refusal = "is owned by uid 65534, not you"
        } else {
            XCTAssertEqual(chmod(folder.path, 0o777), 0)
            XCTAssertEqual(chmod(bar.path, 0o777), 0)
            refusal = "is open to other users (mode 0777)"
        }
        let opened = cli.root.appendingPathComponent("opened.txt")
        _ = try installFakeBrowser(opened: opened)

        let host = try startHost()
        XCTAssertNotNil(host.waitForExit(timeout: 10), "the host ran in the foreign folder:\n\(host.transcript)")
        XCTAssertEqual(host.lines(containing: refusal).count, 1, host.transcript)

        let status = try run(["status"])
        XCTAssertTrue(status.stdout.contains(refusal), status.stdout + status.stderr)
        XCTAssertFalse(status.stdout.contains("running (pid"), status.stdout)

        _ = try run(["open"])
        let block = try runBar(["i3blocks"], extra: environment.merging(["BLOCK_BUTTON": "1"]) { $1 })
        XCTAssertFalse(block.contains("Planted"), "the block showed the planted line: \(block)")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(browserOpened(opened, timeout: 0), "", "a browser was started")
    }
}
