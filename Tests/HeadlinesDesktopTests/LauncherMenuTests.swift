import Foundation
import XCTest
@testable import HeadlinesDesktop

/// The launcher menu runs the launcher through GLib's spawn with pipes (no Foundation Process):
/// the numbered list goes to its stdin, the picked line comes back on its stdout.
final class LauncherMenuTests: XCTestCase {
    func testThePickedLineIsTheIndexChosen() throws {
        // Given a stand-in launcher that picks the second line
        let index = try LauncherMenu.choose(["First", "Second", "Third"], argv: ["sh", "-c", "sed -n 2p"])
        XCTAssertEqual(index, 1)
    }

    func testTheLauncherGetsNumberedLines() throws {
        let dir = NSTemporaryDirectory() + "headlines-menu-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try LauncherMenu.choose(["A & B", "C"], argv: ["sh", "-c", "cat > \"$0\"/in.txt; echo 1", dir])
        XCTAssertEqual(try String(contentsOfFile: dir + "/in.txt", encoding: .utf8), "1. A & B\n2. C\n")
    }

    func testADismissedMenuOrAFailingLauncherPicksNothing() throws {
        XCTAssertNil(try LauncherMenu.choose(["A"], argv: ["sh", "-c", "cat >/dev/null; exit 1"]))
        XCTAssertNil(try LauncherMenu.choose(["A"], argv: ["sh", "-c", "cat >/dev/null"]))
        XCTAssertNil(try LauncherMenu.choose(["A"], argv: ["sh", "-c", "echo 9"]), "out of range")
        // A launcher that exits without reading its input must not kill us with SIGPIPE.
        let many = (0..<20_000).map { "Headline number \($0)" }
        XCTAssertEqual(try LauncherMenu.choose(many, argv: ["sh", "-c", "echo 3"]), 2)
    }

    func testAMissingLauncherIsAClearError() {
        XCTAssertThrowsError(try LauncherMenu.choose(["A"], argv: ["headlines-no-such-launcher"])) { error in
            XCTAssertTrue("\(error)".hasPrefix("The launcher failed (headlines-no-such-launcher: "), "\(error)")
        }
    }

    func testClickObjectsAndBareButtonNumbers() {
        XCTAssertEqual(ClickReader.button(in: Data(#"{"name":"headlines","button":3,"x":1}"#.utf8)), 3)
        XCTAssertEqual(ClickReader.button(in: Data(" 1 ".utf8)), 1)
        XCTAssertNil(ClickReader.button(in: Data("{}".utf8)))
    }
}
