import XCTest
@testable import HeadlinesCore

/// `Arguments.parse`: what a command line becomes, whatever words it holds.
final class ArgumentsTests: XCTestCase {
    func testAnEmptyArgumentIsAWordNotACrash() throws {
        // `headlines ""` (an unset variable in a script) once trapped on an index out of range.
        XCTAssertEqual(try Arguments.parse([""]).command, "")
        XCTAssertEqual(try Arguments.parse(["="]).command, "=")
        XCTAssertEqual(try Arguments.parse(["mute", ""]).positional, [""])
    }
}
