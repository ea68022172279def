import Foundation
import XCTest
@testable import HeadlinesCore
import TestSupport

final class RelativeAgeTests: XCTestCase {
    func testAges() {
        let cases: [(TimeInterval, String)] = [
            (0, "just now"), (59, "just now"), (-30, "just now"), (-60, "just now"), (-61, "in the future"),
            (60, "1 min ago"), (119, "1 min ago"), (3599, "59 min ago"), (3600, "1 h ago"),
            (47 * 3600 + 3599, "47 h ago"), (48 * 3600, "2 days ago"), (7 * 86400 - 1, "6 days ago"),
        ]
        for (age, expected) in cases {
            XCTAssertEqual(RelativeAge.describe(fixtureNow.addingTimeInterval(-age), now: fixtureNow), expected, "\(age) s")
        }
        // From a week on, the date, as the tooltip shows it, never "1005 days ago"
        for age: TimeInterval in [7 * 86400, 1005 * 86400] {
            let date = fixtureNow.addingTimeInterval(-age)
            XCTAssertEqual(RelativeAge.describe(date, now: fixtureNow), BarClock.describe(date, now: fixtureNow))
            XCTAssertFalse(RelativeAge.describe(date, now: fixtureNow).contains("ago"))
        }
    }
}

final class CountedNounTests: XCTestCase {
    func testOneHeadlineIsSingular() {
        XCTAssertEqual(NumberText.counted(1, "headline"), "1 headline")
        XCTAssertEqual(NumberText.counted(0, "headline"), "0 headlines")
        XCTAssertEqual(NumberText.counted(33, "headline"), "33 headlines")
    }
}
