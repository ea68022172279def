import Foundation
import HeadlinesCore
import TestSupport
import XCTest

/// ledger.json as lines: a save appends the attempt, synced before the request may leave; the
/// file is rewritten whole when older attempts change or the lines outgrow it; old files load.
final class LedgerFileTests: XCTestCase {
    private let path = "/state/headlines/ledger.json"
    private var files = RecordingFileSystem()
    private var warnings: [String] = []
    private let start = HostTime(wall: Date(timeIntervalSince1970: 1_800_000_000), monotonic: 500, boot: "boot-a")

    override func setUp() {
        files = RecordingFileSystem()
        warnings = []
    }

    private func load() -> RefreshLedger {
        LedgerStore(path: path, fileSystem: files).load(now: start.wall, warn: { self.warnings.append($0) })
    }

    /// A ledger with `count` attempts a second apart ending at `start`, saved once (the rewrite).
    private func saved(_ count: Int, in store: LedgerStore) throws -> RefreshLedger {
        var ledger = RefreshLedger()
        ledger.records = (0..<count).map { i in
            let t = start.adding(Double(i - count + 1))
            return .init(at: t.wall, monotonic: t.monotonic, boot: t.boot)
        }
        ledger.lastOutcome = .success
        try store.store(ledger)
        ledger.markSaved()
        return ledger
    }

    func testASaveAppendsTheNewAttemptAndSyncsItBeforeItReturns() throws {
        let store = LedgerStore(path: path, fileSystem: files)
        var ledger = try saved(3, in: store)
        ledger.recordAttempt(at: start.adding(1))
        ledger.recordFailure(retryAfter: nil)
        let before = files.log.all.count
        try store.store(ledger)
        let calls = Array(files.log.all[before...])
        guard case let .write(_, bytes) = calls.dropFirst().first else { return XCTFail("\(calls)") }
        XCTAssertEqual(calls, [.openAppending(path), .write(path, bytes: bytes), .sync(path), .close(path)])
        XCTAssertLessThan(bytes, 200)
        XCTAssertEqual(RecordingFileSystem.durableWrites(in: files.log.all).violations, [])
        // A host that dies now is followed by one that counts the attempt and the failure.
        let next = load()
        XCTAssertEqual(next.attempts, ledger.attempts)
        XCTAssertEqual(next.records.last?.monotonic, 501)
        XCTAssertEqual(next.consecutiveFailures, 1)
        XCTAssertEqual(warnings, [])
    }

    func testEarlierVersionsDocumentsLoad() throws {
        for name in ["host/ledger.json", "awkward/ledger.json"] {
            let old = FixturePaths.data("state/" + name)
            files.place(old, at: path)
            XCTAssertEqual(load(), try StateJSONDecoder.headlines().decode(RefreshLedger.self, from: old), name)
        }
        XCTAssertEqual(warnings, [])
    }

    func testALastLineCutShortIsDroppedAndTheNextSaveRewritesTheFile() throws {
        // Given a host killed in the middle of an append
        let store = LedgerStore(path: path, fileSystem: files)
        var ledger = try saved(2, in: store)
        files.place(files.contents(path)! + Data(#"{"at":["2027-01-15T08:0"#.utf8), at: path)
        // Then the next host loads the whole lines without a warning
        XCTAssertEqual(load().attempts, ledger.attempts)
        XCTAssertEqual(warnings, [])
        // And its first save does not append after the cut line
        let next = LedgerStore(path: path, fileSystem: files)
        ledger.recordAttempt(at: start.adding(1))
        try next.store(ledger)
        XCTAssertFalse(files.log.all.contains(.openAppending(path)))
        XCTAssertEqual(load().attempts, ledger.attempts)
    }

    func testACorruptLineSetsTheFileAsideWithOneWarning() throws {
        let store = LedgerStore(path: path, fileSystem: files)
        var ledger = try saved(2, in: store)
        ledger.recordAttempt(at: start.adding(1))
        try store.store(ledger)
        var bytes = files.contents(path)!
        bytes[bytes.firstIndex(of: UInt8(ascii: "\n"))! + 2] = UInt8(ascii: "#")
        files.place(bytes, at: path)
        XCTAssertEqual(load(), RefreshLedger())
        XCTAssertEqual(load(), RefreshLedger())
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertEqual(files.contents(path + ".corrupt-1800000000"), bytes)
    }

    /// A wall clock set under the host re-dates the attempts by CLOCK_BOOTTIME: the file is
    /// rewritten, so a load after a reboot, which has only the wall dates, ages them right.
    func testAttemptsReDatedByAClockStepRewriteTheFile() throws {
        let store = LedgerStore(path: path, fileSystem: files)
        var ledger = try saved(2, in: store)
        let stepped = HostTime(wall: start.wall.addingTimeInterval(3600 + 10), monotonic: start.monotonic + 10, boot: start.boot)
        ledger.normalize(at: stepped)
        XCTAssertEqual(ledger.unsaved, .all)
        ledger.recordAttempt(at: stepped)
        let before = files.log.all.count
        try store.store(ledger)
        XCTAssertFalse(files.log.all[before...].contains(.openAppending(path)))
        XCTAssertEqual(load().attempts, ledger.attempts)
        XCTAssertEqual(load().attempts.first, start.wall.addingTimeInterval(3600 - 1))
    }

    /// Two thousand saves of one attempt each: every save but a few rewrites appends a line, and
    /// the file never holds more lines than its last rewrite's length (or 64 KiB) allows.
    func testAppendedLinesAreFoldedIntoARewriteBeforeTheyOutgrowIt() throws {
        let store = LedgerStore(path: path, fileSystem: files)
        var ledger = try saved(500, in: store)
        var rewritten = files.contents(path)!.count, rewrites = 0, written = 0
        for i in 1...2_000 {
            ledger.recordAttempt(at: start.adding(Double(i)))
            let before = files.log.all.count
            try store.store(ledger)
            ledger.markSaved()
            let calls = files.log.all[before...]
            written += calls.reduce(0) { if case let .write(_, n) = $1 { $0 + n } else { $0 } }
            let size = files.contents(path)!.count
            if calls.contains(where: { if case .rename = $0 { true } else { false } }) {
                rewrites += 1
                rewritten = size
            }
            XCTAssertLessThanOrEqual(size, rewritten + max(64 << 10, rewritten), "save \(i)")
        }
        XCTAssertEqual(Set(1...6).contains(rewrites), true, "\(rewrites) rewrites")
        XCTAssertLessThan(written / 2_000, 300, "bytes written per save")
        var loaded = load()
        loaded.normalize(at: start.adding(2_000))
        XCTAssertEqual(loaded.attempts, ledger.attempts)
        XCTAssertEqual(RecordingFileSystem.durableWrites(in: files.log.all).violations, [])
    }
}
