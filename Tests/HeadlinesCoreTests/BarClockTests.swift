import TestSupport
import XCTest
@testable import HeadlinesCore
#if canImport(Glibc)
import Glibc
#endif

/// Bars show when a headline was published as a clock time, which changes only at local
/// midnight, so an idle host and its bar copies have nothing to rewrite between refreshes
/// (ages in five-minute steps woke the host 10 times and each bar copy 3 times in
/// five idle minutes).
final class BarClockTests: XCTestCase {
    private var zone: TimeZoneOverride?

    // A POSIX rule, not a zoneinfo name: no tzdata needed. Berlin: UTC+1, summer UTC+2.
    override func setUp() { zone = TimeZoneOverride("CET-1CEST,M3.5.0,M10.5.0/3") }

    override func tearDown() { zone?.restore() }

    /// 2027-01-15 (a Friday) at HH:MM local (UTC+1).
    private func local(_ day: Int, _ hour: Int, _ minute: Int, month: Int = 1, year: Int = 2027) -> Date {
        var tm = tm()
        tm.tm_year = Int32(year - 1900); tm.tm_mon = Int32(month - 1); tm.tm_mday = Int32(day)
        tm.tm_hour = Int32(hour); tm.tm_min = Int32(minute); tm.tm_isdst = -1
        return Date(timeIntervalSince1970: TimeInterval(mktime(&tm)))
    }

    func testTodayIsAClockTimeTheWeekBeforeAWeekdayOlderADate() {
        let now = local(15, 10, 0)
        XCTAssertEqual(BarClock.describe(local(15, 8, 7), now: now), "08:07")
        XCTAssertEqual(BarClock.describe(local(15, 0, 0), now: now), "00:00")
        XCTAssertEqual(BarClock.describe(local(14, 23, 59), now: now), "Thu 23:59")
        XCTAssertEqual(BarClock.describe(local(9, 12, 30), now: now), "Sat 12:30")
        XCTAssertEqual(BarClock.describe(local(8, 12, 30), now: now), "8 Jan")
        XCTAssertEqual(BarClock.describe(local(28, 9, 0, month: 12, year: 2026), now: now), "28 Dec 2026")
        // A feed whose clock runs ahead: still a time, never a negative age.
        XCTAssertEqual(BarClock.describe(local(15, 10, 20), now: now), "10:20")
    }

    func testTheLocalZoneDecidesTheDayNotUTC() {
        // 00:30 local on the 15th is 23:30 UTC on the 14th: it is still "today" here.
        XCTAssertEqual(BarClock.describe(local(15, 0, 30), now: local(15, 22, 0)), "00:30")
    }

    func testTheLabelChangesAtLocalMidnightAndNotBefore() throws {
        let published = local(15, 8, 7)
        for now in [local(15, 8, 10), local(15, 23, 59), local(16, 13, 0), local(21, 23, 0)] {
            let next = try XCTUnwrap(BarClock.nextChange(published, now: now))
            XCTAssertGreaterThan(next, now)
            XCTAssertLessThanOrEqual(next.timeIntervalSince(now), 7 * 86400 + 3600)
            XCTAssertEqual(BarClock.describe(published, now: next.addingTimeInterval(-1)), BarClock.describe(published, now: now))
            XCTAssertNotEqual(BarClock.describe(published, now: next), BarClock.describe(published, now: now),
                              "nothing changed at the announced midnight")
        }
        XCTAssertEqual(BarClock.nextChange(published, now: local(15, 9, 0)), local(16, 0, 0), "\"08:07\" becomes \"Fri 08:07\"")
        XCTAssertEqual(BarClock.nextChange(published, now: local(16, 13, 0)), local(22, 0, 0), "\"Fri 08:07\" becomes \"15 Jan\"")
        XCTAssertNil(BarClock.nextChange(published, now: local(23, 9, 0)), "\"15 Jan\" never changes again")
    }

    func testADateOfLastYearGainsItsYearAtNewYearsMidnight() {
        // "20 Dec" read on 31 Dec becomes "20 Dec 2026" when 2027 starts.
        let published = local(20, 9, 0, month: 12, year: 2026), now = local(31, 10, 0, month: 12, year: 2026)
        XCTAssertEqual(BarClock.describe(published, now: now), "20 Dec")
        XCTAssertEqual(BarClock.nextChange(published, now: now), local(1, 0, 0))
        XCTAssertEqual(BarClock.describe(published, now: local(1, 0, 0)), "20 Dec 2026")
    }

    func testMidnightAcrossTheSpringChangeIsTheRealOne() {
        // 2027-03-28: clocks go from 02:00 to 03:00; midnight itself is unaffected.
        XCTAssertEqual(BarClock.nextChange(local(27, 9, 0, month: 3), now: local(27, 23, 0, month: 3)), local(28, 0, 0, month: 3))
    }

    func testAnIdleBarLineDoesNotChangeForHoursBetweenRefreshes() {
        // Given five headlines published over the morning, none of them "new" any more
        let now = local(15, 10, 0)
        let headlines = (0..<5).map { i in
            Headline(id: "id-\(i)", title: "Headline \(i)", url: URL(string: "https://example.com/\(i)")!,
                     source: "Example", publishedAt: now.addingTimeInterval(-Double(i + 1) * 1200))
        }
        let state = BarState(headlines: headlines, index: 0, freshness: .fresh)
        // Then every line reads the same five minutes and five hours later, and the host's next
        // wake-up for the lines is midnight
        let at10 = BarLines.render(state, now: now, maxLength: 80)
        XCTAssertEqual(BarLines.render(state, now: now.addingTimeInterval(300), maxLength: 80), at10)
        XCTAssertEqual(BarLines.render(state, now: now.addingTimeInterval(5 * 3600), maxLength: 80), at10)
        XCTAssertEqual(state.nextTextChange(now: now), local(16, 0, 0))
        XCTAssertTrue(at10[.waybar]?.contains("09:40") ?? false, at10[.waybar] ?? "no waybar line")
    }
}
