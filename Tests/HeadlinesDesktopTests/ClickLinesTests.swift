import Foundation
@testable import HeadlinesDesktop
import XCTest

/// i3blocks 1.5 writes clicks to a persist block's stdin; reads may split or join lines.
final class ClickLinesTests: XCTestCase {
    func testALineSplitOverTwoReadsIsOneClick() {
        var lines = ClickLines()
        XCTAssertEqual(lines.append(Array(#"{"name":"headlines","but"#.utf8)), [])
        XCTAssertEqual(lines.append(Array("ton\":3}\n".utf8)), [3])
    }

    func testSeveralLinesInOneReadAreEachAClickInOrder() {
        var lines = ClickLines()
        XCTAssertEqual(lines.append(Array("1\n{\"button\":5}\ngarbage\n4\n".utf8)), [1, 5, 4])
    }

    func testAnEndlessLineIsDroppedNotKept() {
        var lines = ClickLines()
        XCTAssertEqual(lines.append([UInt8](repeating: UInt8(ascii: "x"), count: ClickLines.maxPending + 1)), [])
        // The noise is gone: the next line is read on its own.
        XCTAssertEqual(lines.append(Array("2\n".utf8)), [2])
    }
}
