import Foundation
import TestSupport
import XCTest

/// Cache and state that cannot be written (a read-only folder, a read-only file system, a full
/// disk): `list` and `status` exit 0, `fetch` 0 or 1, each says at most one line, and the host
/// keeps reloading ok from memory, says each warning at most once a reload, and stops on SIGTERM.
final class UnwritableStateTests: HostTestCase {
    /// Where cache and state live when not in the runner's own folders.
    private var stateElsewhere: [String: String] = [:]
    private var mounted: String?

    override var environment: [String: String] { super.environment.merging(stateElsewhere) { _, new in new } }

    override func tearDown() {
        if let mounted { _ = umount2(mounted, Int32(MNT_DETACH)) }
        for folder in ["cache/headlines", "state/headlines"] {
            _ = chmod(cli.root.appendingPathComponent(folder).path, 0o700)
        }
        super.tearDown()
    }

    /// Good files first: a fetch leaves the cache, the status and the ledger.
    override func setUpWithError() throws {
        try super.setUpWithError()
        try writeConfig(interval: "1s", dailyBudget: 86400)
        XCTAssertEqual(try run(["fetch"]).status, 0)
    }

    func testAReadOnlyStateFolder() throws {
        XCTAssertEqual(chmod(cli.root.appendingPathComponent("state/headlines").path, 0o555), 0)
        cli.launcher = CLIRunner.fileModesBindEvenRoot
        try assertCarriesOn("read-only state folder")
    }

    func testAReadOnlyCacheFolder() throws {
        XCTAssertEqual(chmod(cli.root.appendingPathComponent("cache/headlines").path, 0o555), 0)
        cli.launcher = CLIRunner.fileModesBindEvenRoot
        try assertCarriesOn("read-only cache folder")
    }

    func testAReadOnlyFileSystem() throws {
        let disk = try mountTmpfs(size: "1m")
        XCTAssertEqual(mount(nil, disk, nil, UInt(MS_REMOUNT | MS_RDONLY), nil), 0, "remounting the tmpfs read-only")
        try assertCarriesOn("read-only file system", expecting: "Read-only file system")
    }

    func testAFullDisk() throws {
        let disk = try mountTmpfs(size: "64k")
        // Fill what the good files left free.
        let filler = open(disk + "/filler", O_WRONLY | O_CREAT, 0o600)
        let block = [UInt8](repeating: 0, count: 1024)
        while write(filler, block, block.count) > 0 {}
        close(filler)
        var facts = statvfs()
        XCTAssertEqual(statvfs(disk, &facts), 0)
        XCTAssertEqual(facts.f_bavail, 0, "the tmpfs still has room after filling")
        try assertCarriesOn("full disk", expecting: "No space left on device")
    }

    /// A small tmpfs holding a copy of the cache and state, which the commands then use.
    private func mountTmpfs(size: String) throws -> String {
        guard geteuid() == 0 else { throw XCTSkip("mounting a small tmpfs needs root (CI runs as root)") }
        let disk = cli.root.appendingPathComponent("disk").path
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        XCTAssertEqual(mount("tmpfs", disk, "tmpfs", 0, "size=\(size),mode=755"), 0, "mount -t tmpfs: errno \(errno)")
        mounted = disk
        for folder in ["cache", "state"] {
            try FileManager.default.copyItem(atPath: cli.root.appendingPathComponent(folder).path, toPath: disk + "/" + folder)
        }
        stateElsewhere = ["XDG_CACHE_HOME": disk + "/cache", "XDG_STATE_HOME": disk + "/state"]
        return disk
    }

    private func assertCarriesOn(_ situation: String, expecting error: String = "Permission denied") throws {
        for command in [["list", "--json"], ["status", "--json"], ["fetch"]] {
            let result = try run(command)
            XCTAssertTrue(command[0] == "fetch" ? [0, 1].contains(result.status) : result.status == 0,
                          "\(situation): \(command[0]) exited \(result.status): \(result.stderr)")
            XCTAssertLessThanOrEqual(result.stderrLines.count, 1, "\(situation): \(command[0]): \(result.stderr)")
        }
        let host = try startHost()
        cli.launcher = []
        try expectLine("reload ok", from: host, within: 20)
        try expectLine("reload ok", from: host, after: host.lines(containing: "reload ok").first!.index + 1, within: 20)
        XCTAssertFalse(host.lines(containing: error).isEmpty, "\(situation): the host never said why it could not save: \(host.transcript)")
        let reloads = host.lines(containing: "reload ok").count
        let warnings = Dictionary(grouping: host.lines(containing: "warning:").map {
            $0.text.replacing(/\.tmp-[0-9]+-[0-9]+/, with: ".tmp-N")
        }, by: { $0 })
        for (warning, said) in warnings {
            XCTAssertLessThanOrEqual(said.count, reloads, "\(situation): said \(said.count) times in \(reloads) reloads: \(warning)")
        }
        assertStopsQuickly(host, situation)
    }
}
