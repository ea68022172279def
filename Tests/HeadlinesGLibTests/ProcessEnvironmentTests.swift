import Foundation
import HeadlinesGLib
import XCTest

/// `ProcessEnvironment.withholdKeys` on this test process: a program started without an
/// environment of its own (GIO's launch, a library's helper) inherits `environ`, so every key
/// variable must be gone from it, while what `current()` read before still holds the keys for the
/// reload child. The names are written out here, not taken from `keyVariables`, so that a name
/// missing from that list fails too.
final class ProcessEnvironmentTests: XCTestCase {
    private let keys = ["APITUBE_API_KEY", "NEWSAPI_API_KEY", "GUARDIAN_API_KEY", "NYT_API_KEY", "GNEWS_API_KEY",
                        "HEADLINES_JSON_API_KEY"]
    private var saved: [String: String] = [:]

    override func setUp() {
        super.setUp()
        for key in keys { if let value = getenv(key) { saved[key] = String(cString: value) } }
    }

    override func tearDown() {
        // Whatever the person running the tests had set is theirs again.
        for key in keys {
            if let value = saved[key] { setenv(key, value, 1) } else { unsetenv(key) }
        }
        super.tearDown()
    }

    func testEveryKeyLeavesTheEnvironmentOnceRead() {
        // Given every key variable set
        for key in keys { setenv(key, "secret-\(key)", 1) }
        // When the environment is read, then the keys withheld
        let read = ProcessEnvironment.current()
        ProcessEnvironment.withholdKeys()
        // Then none is left for a child to inherit, and what was read keeps them all
        XCTAssertEqual(keys.filter { getenv($0) != nil }, [], "left in the environment")
        XCTAssertEqual(keys.filter { read[$0] != "secret-\($0)" }, [], "missing from what was read")
    }
}
