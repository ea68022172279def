import Foundation
import HeadlinesCore
@testable import HeadlinesDesktop
import XCTest

/// The host lock: the holder's PID in a private folder of ours, opened without following links. A planted link is refused, its target never truncated.
final class HostLockTests: XCTestCase {
    private var root = ""
    private var folder: String { root + "/run/headlines" }
    private var lockPath: String { folder + "/host.lock" }

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "host-lock-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDown() { _ = try? FileManager.default.removeItem(atPath: root) }

    private func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    private func refusal(_ lock: HostLock) -> RuntimeFolderRefusal? {
        do { let acquired = try lock.acquire(); XCTFail("not refused (acquired: \(acquired))"); return nil } catch let refusal as RuntimeFolderRefusal { return refusal } catch {
            XCTFail("\(error)"); return nil
        }
    }

    func testAHostWritesItsPIDInAFolderItCreatesPrivate() throws {
        let lock = HostLock(path: lockPath)
        XCTAssertTrue(try lock.acquire())
        XCTAssertEqual(contents(lockPath), "\(getpid())\n")
        var st = stat()
        XCTAssertEqual(stat(folder, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o700)
        XCTAssertEqual(stat(lockPath, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        XCTAssertEqual(HostLock.holder(path: lockPath), HostLock.Holder(pid: getpid()))
        XCTAssertEqual(HostLock.holderPID(path: lockPath), getpid())
        // flock is per open file: a second lock, even in this process, is refused while it is held
        XCTAssertFalse(try HostLock(path: lockPath).acquire())
    }

    func testAHostWhoseFolderWasRemovedTakesANewLockBeforeAnyoneElse() throws {
        let lock = HostLock(path: lockPath)
        XCTAssertTrue(try lock.acquire())
        XCTAssertTrue(try lock.reacquireIfReplaced(), "nothing replaced: still ours")
        try FileManager.default.removeItem(atPath: folder)
        // Until the host notices, a newcomer could take a fresh lock...
        XCTAssertTrue(try lock.reacquireIfReplaced())
        XCTAssertEqual(contents(lockPath), "\(getpid())\n")
        var st = stat()
        XCTAssertEqual(stat(folder, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o700)
        // ...but once it has, a newcomer cannot
        XCTAssertFalse(try HostLock(path: lockPath).acquire())
        XCTAssertEqual(HostLock.holder(path: lockPath)?.pid, getpid())
    }

    func testALockFileUnlinkedFromAFolderThatStaysIsNoticedAndTakenAgain() throws {
        let lock = HostLock(path: lockPath)
        XCTAssertTrue(try lock.acquire())
        XCTAssertTrue(lock.holdsFileAtPath())
        // rm -rf unlinked host.lock, then could not remove the folder a new file had landed in
        XCTAssertEqual(unlink(lockPath), 0)
        XCTAssertFalse(lock.holdsFileAtPath(), "the folder is the same, but the lock file is gone")
        XCTAssertTrue(try lock.reacquireIfReplaced())
        XCTAssertTrue(lock.holdsFileAtPath())
        XCTAssertEqual(contents(lockPath), "\(getpid())\n")
    }

    func testAHostThatFindsAnotherLockInItsRecreatedFolderSaysSo() throws {
        let lock = HostLock(path: lockPath)
        XCTAssertTrue(try lock.acquire())
        try FileManager.default.removeItem(atPath: folder)
        let newcomer = HostLock(path: lockPath)
        XCTAssertTrue(try newcomer.acquire())
        XCTAssertFalse(try lock.reacquireIfReplaced(), "two hosts would each believe they are the one")
        XCTAssertFalse(try HostLock(path: lockPath + ".never").reacquireIfReplaced(), "never held")
    }

    func testALongerOldPIDIsCutAway() throws {
        try RuntimeFolder.ensurePrivate(folder)
        _ = FileManager.default.createFile(atPath: lockPath, contents: Data("2147483647 oneshot and more\n".utf8), attributes: [.posixPermissions: 0o600])
        let lock = HostLock(path: lockPath)
        XCTAssertTrue(lock.tryAcquire())
        XCTAssertEqual(contents(lockPath), "\(getpid())\n")
        XCTAssertEqual(HostLock.holder(path: lockPath), HostLock.Holder(pid: getpid()))
    }

    func testAFreeLockHasNoHolderWhateverItsFileSays() throws {
        try RuntimeFolder.ensurePrivate(folder)
        _ = FileManager.default.createFile(atPath: lockPath, contents: Data("4242 host\n".utf8), attributes: [.posixPermissions: 0o600])
        XCTAssertNil(HostLock.holder(path: lockPath))
    }

    func testTheLockFileFormatOldAndNew() {
        XCTAssertEqual(HostLock.parse("4242\n"), HostLock.Holder(pid: 4242))
        XCTAssertEqual(HostLock.parse("4242 host\n"), HostLock.Holder(pid: 4242), "what earlier versions wrote")
        XCTAssertEqual(HostLock.parse("4242 oneshot\n"), HostLock.Holder(pid: 4242))
        XCTAssertNil(HostLock.parse("4242 host extra\n"))
        XCTAssertNil(HostLock.parse("-1 host\n"))
        XCTAssertNil(HostLock.parse("\n"))
    }

    func testALinkedLockIsRefusedAndItsTargetIsNotTruncated() throws {
        try RuntimeFolder.ensurePrivate(folder)
        let target = root + "/precious"
        _ = FileManager.default.createFile(atPath: target, contents: Data("keep me\n".utf8), attributes: [.posixPermissions: 0o600])
        XCTAssertEqual(symlink(target, lockPath), 0)
        let lock = HostLock(path: lockPath)
        XCTAssertEqual(refusal(lock)?.problem, .symbolicLink)
        XCTAssertFalse(lock.tryAcquire())
        XCTAssertEqual(contents(target), "keep me\n")
        XCTAssertNil(HostLock.holder(path: lockPath))
    }

    func testALockFileOthersCanWriteIsRefused() throws {
        try RuntimeFolder.ensurePrivate(folder)
        _ = FileManager.default.createFile(atPath: lockPath, contents: Data("1 host\n".utf8), attributes: [.posixPermissions: 0o666])
        XCTAssertEqual(chmod(lockPath, 0o666), 0)
        XCTAssertEqual(refusal(HostLock(path: lockPath))?.problem, .openToOthers(mode: 0o666))
        XCTAssertEqual(contents(lockPath), "1 host\n")
    }

    func testALockFileOrFolderOfAnotherUserIsRefused() throws {
        guard getuid() == 0 else { throw XCTSkip("chown to another user needs root (CI runs as root)") }
        try RuntimeFolder.ensurePrivate(folder)
        _ = FileManager.default.createFile(atPath: lockPath, contents: Data("1 host\n".utf8), attributes: [.posixPermissions: 0o600])
        XCTAssertEqual(chown(lockPath, 65534, 65534), 0)
        XCTAssertEqual(refusal(HostLock(path: lockPath))?.problem, .ownedBy(uid: 65534))
        XCTAssertEqual(unlink(lockPath), 0)
        XCTAssertEqual(chown(folder, 65534, 65534), 0)
        XCTAssertEqual(refusal(HostLock(path: lockPath))?.problem, .ownedBy(uid: 65534))
        XCTAssertFalse(FileManager.default.fileExists(atPath: lockPath), "nothing created in a foreign folder")
    }

    func testAFolderOthersCanUseIsRefusedAndLeftAsItIs() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(folder, 0o777), 0)
        let refused = refusal(HostLock(path: lockPath))
        XCTAssertEqual(refused?.problem, .openToOthers(mode: 0o777))
        XCTAssertEqual(refused?.isFolder, true)
        XCTAssertFalse(FileManager.default.fileExists(atPath: lockPath))
    }
}
