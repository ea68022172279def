import Foundation
import XCTest
import HeadlinesCore
import HeadlinesSources

/// A reload held back says which limit holds it: the daily budget or the server's
/// Retry-After, never "one or the other", and when the next one is allowed.
final class SkippedReloadWordsTests: XCTestCase {
    private var dir = TempDir()
    override func setUp() { dir = TempDir() }
    override func tearDown() { dir.remove() }

    private func skipped(budget: Int, ledger: RefreshLedger) async -> [String] {
        let store = LedgerStore(path: dir.ledgerFile)
        try? store.store(ledger)
        let clocks = HostTime(wall: monday, monotonic: monday.timeIntervalSince1970, boot: "test-boot")
        var warnings: [String] = []
        let provider = FakeTimelineProvider(during: { _ in XCTFail("no request may go out") }, policy: { .after($0.addingTimeInterval(1800)) })
        let result = await ReloadIfDue.reload(provider: provider, dailyBudget: budget, ledgerStore: store, tally: nil,
                                              at: clocks, after: { clocks }, warn: { warnings.append($0) })
        XCTAssertNil(result)
        return warnings
    }

    func testASpentBudgetSaysTheBudgetAndWhen() async {
        var ledger = RefreshLedger()
        ledger.recordAttempt(at: monday.addingTimeInterval(-3600))
        let warnings = await skipped(budget: 1, ledger: ledger)
        let next = LocalTime.stamp(monday.addingTimeInterval(23 * 3600))
        XCTAssertEqual(warnings, ["Reload skipped: the daily budget (1 reload a day) is spent; the next is allowed at \(next)."])
    }

    func testARetryAfterSaysTheServer() async {
        var ledger = RefreshLedger()
        ledger.recordFailure(retryAfter: monday.addingTimeInterval(600), now: monday)
        let warnings = await skipped(budget: 48, ledger: ledger)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings.first?.hasPrefix("Reload skipped: the server's Retry-After asks to wait; the next is allowed at ") ?? false, "\(warnings)")
    }
}
