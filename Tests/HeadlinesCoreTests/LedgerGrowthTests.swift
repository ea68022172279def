import Foundation
import XCTest
import TestSupport
import HeadlinesCore

/// What the ledger costs the disk at the largest budget the config allows: a reload's save
/// writes what it adds, not the day of attempts the ledger holds.
final class LedgerGrowthTests: XCTestCase {
    private let clock = ManualClock(monday)
    private let files = RecordingFileSystem()
    private let path = "/state/headlines/ledger.json"
    private let configuration = HostConfiguration(providerName: "Test", sourceIdentity: "s", interval: 1, dailyBudget: 86_400,
                                                  layout: { Timeline(entries: [$0], policy: .after($1)) })

    private func result(at date: Date) -> TimelineResult {
        let entry = TimelineEntry(date: date, content: WidgetContent(headlines: headlines(2), freshness: .fresh, fetchedAt: date))
        return TimelineResult(timeline: Timeline(entries: [entry], policy: .after(date.addingTimeInterval(1))),
                              failure: nil, fetched: headlines(2))
    }

    /// Bytes written to the ledger by each save these actions ask for, in order.
    private func save(_ actions: [HostAction], with store: LedgerStore) throws -> [Int] {
        try actions.compactMap { action -> Int? in
            guard case let .saveLedger(ledger) = action else { return nil }
            let before = files.log.all.count
            try store.store(ledger)
            return files.log.all[before...].reduce(0) { sum, call in
                if case let .write(_, bytes) = call { return sum + bytes }
                return sum
            }
        }
    }

    func testWithADayOfAttemptsAtOneSecondEachReloadWritesALineNotTheDay() throws {
        // Given a ledger holding an attempt every second of the last 24 hours, one slot free
        var full = RefreshLedger()
        full.records = (1..<86_400).map { i in
            let t = clock.time.adding(Double(i - 86_400))
            return RefreshLedger.Attempt(at: t.wall, monotonic: t.monotonic, boot: t.boot)
        }
        let store = LedgerStore(path: path, fileSystem: files)
        var engine = HostEngine()
        var saves = try save(engine.handle(.started(HostStart(hostPID: 1, ledger: full, cache: nil), configuration),
                                           at: clock.time), with: store)
        // When the host reloads every second for ten seconds, each answer a success
        for _ in 0..<10 {
            clock.advance(by: 0.05)
            saves += try save(engine.handle(.reloadFinished(result(at: clock.now), requestsSent: 1), at: clock.time), with: store)
            let wake = try XCTUnwrap(engine.timerAt)
            clock.advance(by: wake.timeIntervalSince(clock.now))
            saves += try save(engine.handle(.timerFired, at: clock.time), with: store)
        }
        // Then every reload's attempt was saved, and after the start each save wrote a line
        XCTAssertEqual(engine.ledger.attempts.count, 86_400)
        XCTAssertGreaterThanOrEqual(saves.count, 11, "\(saves)")
        XCTAssertEqual(saves.dropFirst().filter { $0 > 1024 }, [], "saves after the first wrote the whole day")
        var reloaded = LedgerStore(path: path, fileSystem: files).load(now: clock.now, warn: { XCTFail($0) })
        reloaded.normalize(at: clock.time)
        XCTAssertEqual(reloaded.attempts.count, 86_400, "a restart would not count every attempt")
    }
}
