import BarFormats
import XCTest

/// The key a click carries to name the headline shown, and the file a keyed i3blocks block reads it from.
final class HeadlineKeyTests: XCTestCase {
    func testKeysAreSixteenHexDigitsAndStable() {
        XCTAssertEqual(HeadlineKey.of(id: ""), "cbf29ce484222325")
        XCTAssertEqual(HeadlineKey.of(id: "https://example.com/a"), HeadlineKey.of(id: "https://example.com/a"))
        XCTAssertNotEqual(HeadlineKey.of(id: "a"), HeadlineKey.of(id: "b"))
        XCTAssertTrue(HeadlineKey.isKey(HeadlineKey.of(id: "x")))
        XCTAssertFalse(HeadlineKey.isKey("0123456789ABCDEF"))
        XCTAssertFalse(HeadlineKey.isKey("0123456789abcde; rm"))
        XCTAssertEqual(ShownRecord.i3blocksName(blockName: "news/../x", instance: String(repeating: "é", count: 40)).utf8.count, 9 + 9 + 1 + 32)
        XCTAssertEqual(ShownRecord.key(in: Array("0123456789abcdef\n".utf8)), "0123456789abcdef")
        XCTAssertNil(ShownRecord.key(in: Array("0123456789abcdef0\n".utf8)))
    }
}
