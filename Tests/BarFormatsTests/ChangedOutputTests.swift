import BarFormats
import XCTest

/// `headlines-bar json --changed-from HASH`: what is printed for a document, given the name of the
/// one the widget host has.
final class ChangedOutputTests: XCTestCase {
    private let document = Array(#"{"error":null,"index":0,"items":[],"stale":false,"state":"fresh","updated_at":null,"widget":null}"#.utf8) + [0x0A]

    func testADocumentTheHostHasIsNotPrintedAndAnotherIsPrintedAfterItsName() throws {
        let printed = try XCTUnwrap(ChangedOutput.framed(document, known: 0))
        let newline = try XCTUnwrap(printed.firstIndex(of: 0x0A))
        let name = String(decoding: printed[..<newline], as: UTF8.self)
        XCTAssertEqual(Array(printed[(newline + 1)...]), document)
        XCTAssertEqual(name.count, 16)
        // The name printed is the one to pass next time: then nothing is printed.
        XCTAssertNil(ChangedOutput.framed(document, known: try XCTUnwrap(ChangedOutput.parse(name))))
        // and one changed byte is a new document
        var changed = document
        changed[changed.count - 3] = UInt8(ascii: "x")
        XCTAssertNotNil(ChangedOutput.framed(changed, known: try XCTUnwrap(ChangedOutput.parse(name))))
    }

    func testANameIsFNV1aOverTheBytesIn16HexDigits() {
        // FNV-1a 64 of "a" is af63dc4c8601ec8c; of nothing, the offset basis.
        XCTAssertEqual(ChangedOutput.name(of: Array("a".utf8)), "af63dc4c8601ec8c")
        XCTAssertEqual(ChangedOutput.name(of: []), "cbf29ce484222325")
        XCTAssertEqual(FNV1a.hash("a"), 0xaf63_dc4c_8601_ec8c)
    }

    func testOnlyOneToSixteenHexDigitsAreAName() {
        XCTAssertEqual(ChangedOutput.parse("0"), 0)
        XCTAssertEqual(ChangedOutput.parse("AF63dc4c8601ec8c"), 0xaf63_dc4c_8601_ec8c)
        for refused in ["", "af63dc4c8601ec8c0", "-1", "+1", "0x1", "g", " 1", "1\n"] {
            XCTAssertNil(ChangedOutput.parse(refused), refused)
        }
    }
}
