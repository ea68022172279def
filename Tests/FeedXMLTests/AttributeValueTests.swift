import TestSupport
import XCTest
@testable import FeedXML

/// Character references inside attribute values, undone by the byte pass as the Character-level
/// code it replaced undid them, on random texts of awkward pieces.
final class AttributeValueTests: XCTestCase {
    func testAttributeReferencesUndoneAsTheCharacterCodeDoes() {
        var random = SeededRandom(seed: 29)
        let pieces = ["&#38;", "&#38", ";", "a", "é", "\u{301}", "\u{37E}", "&", "#38;", " "]
        for _ in 0..<5_000 {
            let value = random.text(from: pieces)
            let expected = value.contains("&#38;") ? value.replacing("&#38;", with: "&") : value
            let bytes = Array(value.utf8)
            let got = bytes.withUnsafeBufferPointer { TreeBuilder.attributeValue($0) }
            XCTAssertEqual(Array(got.unicodeScalars), Array(expected.unicodeScalars), "\(Array(value.unicodeScalars))")
        }
    }
}
