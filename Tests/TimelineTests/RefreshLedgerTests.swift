import Foundation
import XCTest
import HeadlinesCore
import HeadlinesSources

/// The ledger on disk: written before each request, and merged without counting an attempt twice.
final class RefreshLedgerTests: XCTestCase {
    private var dir = TempDir()
    override func setUp() { dir = TempDir() }
    override func tearDown() { dir.remove() }

    /// One budgeted reload through the one "reload if due" path, at `now` on both clocks.
    @discardableResult
    private func reload(_ provider: TimelineProvider, budget: Int, store: LedgerStore, tally: RequestTally? = nil,
                        at now: Date, warn: @escaping (String) -> Void = { _ in }) async -> TimelineResult? {
        let clocks = HostTime(wall: now, monotonic: now.timeIntervalSince1970, boot: "test-boot")
        return await ReloadIfDue.reload(provider: provider, dailyBudget: budget, ledgerStore: store, tally: tally,
                                        at: clocks, after: { clocks }, warn: warn)
    }

    /// Reloads left in the window ending at `now`, as a new process reading the file sees them.
    private func remaining(_ store: LedgerStore, budget: Int, at now: Date) -> Int {
        budget - store.load(now: now, warn: { _ in }).attempts(inWindowEndingAt: now)
    }

    /// What the ledger file held while a request was in flight.
    private final class Seen: @unchecked Sendable {
        var ledgers: [(now: Date, onDisk: RefreshLedger)] = []
    }

    func testTheAttemptIsOnDiskBeforeTheRequestGoesOut() async {
        // Given a provider that reads the ledger file from disk when it is called
        let seen = Seen()
        let store = LedgerStore(path: dir.ledgerFile)
        let provider = FakeTimelineProvider(during: { now in
            seen.ledgers.append((now, store.load(now: now, warn: { XCTFail($0) })))
        }, policy: { .after($0.addingTimeInterval(1800)) })

        // When it reloads twice, at times with sub-millisecond parts
        let first = monday.addingTimeInterval(0.0004), second = monday.addingTimeInterval(1800.0007)
        await reload(provider, budget: 48, store: store, at: first, warn: { XCTFail($0) })
        await reload(provider, budget: 48, store: store, at: second, warn: { XCTFail($0) })

        // Then during each request the file already held that attempt (to the millisecond)
        XCTAssertEqual(seen.ledgers.map(\.now), [first, second])
        for (now, onDisk) in seen.ledgers {
            XCTAssertEqual(onDisk.attempts.count, now == first ? 1 : 2)
            XCTAssertEqual(onDisk.lastAttempt?.timeIntervalSince(now) ?? 99, 0, accuracy: 0.001)
        }
        // And after it, the outcome too
        XCTAssertEqual(store.load(now: second, warn: { _ in }).lastOutcome, .success)
    }

    func testEveryKeyedRequestARedirectMadeCountsAgainstTheBudget() async {
        // Given a reloader whose transport sends 3 keyed requests for one reload (two same-origin
        // redirects), and a budget of 5
        let tally = RequestTally()
        let provider = FakeTimelineProvider(during: { _ in (0..<3).forEach { _ in tally.countKeyedRequest() } }) {
            .after($0.addingTimeInterval(60))
        }
        let store = LedgerStore(path: dir.ledgerFile)

        // When it reloads once
        await reload(provider, budget: 5, store: store, tally: tally, at: monday)

        // Then the ledger on disk holds 3 attempts: 2 of the 5 are left
        XCTAssertEqual(store.load(now: monday, warn: { _ in }).attempts.count, 3)
        XCTAssertEqual(remaining(store, budget: 5, at: monday.addingTimeInterval(1)), 2)
    }

    func testReloadsAtSubMillisecondTimesAreEachCountedOnce() async {
        // Given a reloader that has made 3 attempts at sub-millisecond times
        let provider = FakeTimelineProvider { .after($0.addingTimeInterval(60)) }
        let store = LedgerStore(path: dir.ledgerFile)
        var now = monday
        for step in [0.0004, 60.0006, 60.0009] {
            now = now.addingTimeInterval(step)
            await reload(provider, budget: 5, store: store, at: now)
        }

        // When a new process loads the file (each reload above re-read it before writing)
        let onDisk = store.load(now: now, warn: { _ in })

        // Then it counts 3 attempts, 2 left (a moment later: the file keeps milliseconds, so a
        // date read back may sit up to 1 ms after the attempt, and `attempts(inWindowEndingAt:)`
        // only counts dates up to `now`)
        XCTAssertEqual(onDisk.attempts.count, 3)
        XCTAssertEqual(remaining(store, budget: 5, at: now.addingTimeInterval(0.01)), 2)
    }

    func testAnAttemptLeavesTheWindowExactly24HoursLater() {
        var ledger = RefreshLedger()
        ledger.recordAttempt(at: monday)
        XCTAssertEqual(ledger.attempts(inWindowEndingAt: monday.addingTimeInterval(day - 0.001)), 1)
        XCTAssertEqual(ledger.attempts(inWindowEndingAt: monday.addingTimeInterval(day)), 0)
        ledger.recordAttempt(at: monday.addingTimeInterval(day + 1))
        XCTAssertEqual(ledger.attempts, [monday.addingTimeInterval(day + 1)], "pruned to the last 24 hours")
    }
}
