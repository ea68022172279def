import Foundation
import XCTest
import TestSupport
import HeadlinesCore

/// Every date for people (status, error sentences, the host's log) is written one way: local
/// time with its offset.
final class LocalTimeStampTests: XCTestCase {
    private let instant = Date(timeIntervalSince1970: 1_764_460_920) // 2025-11-30T00:02:00Z

    func testAStampIsLocalTimeWithItsOffset() {
        for (rule, expected) in [("UTC0", "2025-11-30 00:02:00 +0000"), ("CET-1", "2025-11-30 01:02:00 +0100"),
                                 ("IST-5:30", "2025-11-30 05:32:00 +0530"), ("EST5", "2025-11-29 19:02:00 -0500")] {
            let zone = TimeZoneOverride(rule)
            XCTAssertEqual(LocalTime.stamp(instant), expected, rule)
            zone.restore()
        }
    }

    func testADateFromAServerBeyondAnyCalendarIsHeldToYearsOneTo9999() {
        let zone = TimeZoneOverride("UTC0")
        defer { zone.restore() }
        XCTAssertEqual(LocalTime.stamp(Date(timeIntervalSince1970: 1e300)), "9999-12-31 23:59:59 +0000")
        XCTAssertEqual(LocalTime.stamp(Date(timeIntervalSince1970: -1e300)), "1-01-01 00:00:00 +0000")
        XCTAssertEqual(LocalTime.stamp(Date(timeIntervalSince1970: .nan)), "1970-01-01 00:00:00 +0000")
    }

    func testTheHostLogWritesTheNextReloadTheSameWay() {
        // Given a host in CET that just started with nothing cached
        let zone = TimeZoneOverride("CET-1")
        defer { zone.restore() }
        var engine = HostEngine()
        let now = HostTime(wall: instant, monotonic: 100, boot: "b")
        let configuration = HostConfiguration(providerName: "P", sourceIdentity: "s", interval: 1800, dailyBudget: 48,
                                              layout: { entry, reloadAt in Timeline(entries: [entry], policy: .after(reloadAt)) })
        _ = engine.handle(.started(HostStart(hostPID: 1, ledger: RefreshLedger(), cache: nil), configuration), at: now)

        // When its reload answers
        let result = TimelineResult(timeline: Timeline(entries: [], policy: .after(instant.addingTimeInterval(1800))), failure: nil, fetched: [])
        let logs = engine.handle(.reloadFinished(result, requestsSent: 1), at: now.adding(1)).compactMap { action -> String? in
            if case let .log(_, line) = action { return line } else { return nil }
        }

        // Then the next reload is written as local time with its offset, not as UTC with Z
        XCTAssertTrue(logs.contains { $0.hasPrefix("next reload at 2025-11-30 01:32:01 +0100") }, "\(logs)")
    }
}
