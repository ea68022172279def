import Foundation
import XCTest
@testable import HeadlinesCore
@testable import HeadlinesSources

final class RelativeAgeTests: XCTestCase {
    func testAges() {
        let cases: [(TimeInterval, String)] = [
            (0, "just now"), (59, "just now"), (-30, "just now"), (-60, "just now"), (-61, "in the future"),
            (60, "1 min ago"), (119, "1 min ago"), (3599, "59 min ago"), (3600, "1 h ago"),
            (47 * 3600 + 3599, "47 h ago"), (48 * 3600, "2 days ago"), (30 * 86400, "30 days ago"),
        ]
        for (age, expected) in cases {
            XCTAssertEqual(RelativeAge.describe(fixtureNow.addingTimeInterval(-age), now: fixtureNow), expected, "\(age) s")
        }
    }
}
