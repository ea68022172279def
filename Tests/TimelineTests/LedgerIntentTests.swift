import Foundation
import XCTest
import HeadlinesCore

/// The ledger's intent log (`LedgerStore.recordIntent`): an attempt the host logged before its
/// reload's request counts for every later load, even when the ledger itself was never saved
/// (the host died first), counts once when it was, and a store of the ledger ends the log.
final class LedgerIntentTests: XCTestCase {
    private var dir = TempDir()
    override func setUp() { dir = TempDir() }
    override func tearDown() { dir.remove() }

    private func attempt(at date: Date) -> RefreshLedger.Attempt {
        var ledger = RefreshLedger()
        return ledger.recordAttempt(at: HostTime(wall: date, monotonic: 1000, boot: "test-boot"))
    }

    private func attempts(_ store: LedgerStore, at now: Date) -> Int {
        store.load(now: now, warn: { XCTFail($0) }).attempts(inWindowEndingAt: now)
    }

    func testALoggedAttemptCountsThoughTheLedgerWasNeverSaved() throws {
        // Given a ledger with one attempt, and a host that logged a second and died before saving
        let store = LedgerStore(path: dir.ledgerFile)
        var ledger = RefreshLedger()
        ledger.recordAttempt(at: HostTime(wall: monday, monotonic: 10, boot: "test-boot"))
        try store.store(ledger)
        try store.recordIntent(attempt(at: monday.addingTimeInterval(1800.0004)))

        // Then a new process loading the ledger counts both
        XCTAssertEqual(attempts(LedgerStore(path: dir.ledgerFile), at: monday.addingTimeInterval(3600)), 2)
    }

    func testAnAttemptBothLoggedAndSavedCountsOnce() throws {
        let store = LedgerStore(path: dir.ledgerFile)
        var ledger = RefreshLedger()
        let made = ledger.recordAttempt(at: HostTime(wall: monday.addingTimeInterval(0.0007), monotonic: 10, boot: "test-boot"))
        try store.recordIntent(made)
        // The host died after the save and before the log was ended: both hold the attempt.
        try store.file.store(ledger)
        XCTAssertEqual(attempts(store, at: monday.addingTimeInterval(60)), 1)
    }

    func testStoringTheLedgerEndsTheLog() throws {
        let store = LedgerStore(path: dir.ledgerFile)
        try store.recordIntent(attempt(at: monday))
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.intentsPath))
        try store.store(RefreshLedger())
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.intentsPath), "the intent log outlived the store")
        XCTAssertEqual(attempts(store, at: monday.addingTimeInterval(60)), 0)
    }

    func testALineCutShortIsSkippedAndTheRestCount() throws {
        let store = LedgerStore(path: dir.ledgerFile)
        try store.recordIntent(attempt(at: monday))
        try store.recordIntent(attempt(at: monday.addingTimeInterval(600)))
        // A power cut in the middle of the third append.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: store.intentsPath))
        handle.seekToEndOfFile()
        handle.write(Data("{\"at\":\"2026-".utf8))
        handle.closeFile()
        XCTAssertEqual(attempts(store, at: monday.addingTimeInterval(3600)), 2)
    }

    func testTheLogIsPrivateAndNeverFollowsALink() throws {
        let store = LedgerStore(path: dir.ledgerFile)
        try store.recordIntent(attempt(at: monday))
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: store.intentsPath)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o077, 0, "the intent log is readable by others")
        try FileManager.default.removeItem(atPath: store.intentsPath)
        let target = dir.path + "/elsewhere"
        FileManager.default.createFile(atPath: target, contents: Data())
        try FileManager.default.createSymbolicLink(atPath: store.intentsPath, withDestinationPath: target)
        XCTAssertThrowsError(try store.recordIntent(attempt(at: monday)))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)).count, 0, "the append followed the link")
    }
}
