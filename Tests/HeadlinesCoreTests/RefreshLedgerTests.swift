import Foundation
import XCTest
import HeadlinesCore

/// The ledger on disk: written before each request, and merged without counting an attempt twice.
final class RefreshLedgerTests: XCTestCase {
    private var dir = TempDir()
    override func setUp() { dir = TempDir() }
    override func tearDown() { dir.remove() }

    func testAnAttemptLeavesTheWindowExactly24HoursLater() {
        var ledger = RefreshLedger()
        ledger.recordAttempt(at: monday)
        XCTAssertEqual(ledger.attempts(inWindowEndingAt: monday.addingTimeInterval(day - 0.001)), 1)
        XCTAssertEqual(ledger.attempts(inWindowEndingAt: monday.addingTimeInterval(day)), 0)
        ledger.recordAttempt(at: monday.addingTimeInterval(day + 1))
        XCTAssertEqual(ledger.attempts, [monday.addingTimeInterval(day + 1)], "pruned to the last 24 hours")
    }
}
