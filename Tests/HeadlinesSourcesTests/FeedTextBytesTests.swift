import TestSupport
import XCTest
@testable import HeadlinesSources
@testable import HeadlinesCore

/// The byte-level passes over feed text give what the Character-level code they stand in for
/// gives, scalar for scalar: checked against the Swift runtime's grapheme rules and against that
/// code itself on texts built from the awkward pieces (combining marks, CR LF, U+037E, entities
/// that decode to a combining mark or a space, emoji sequences, an Arabic prepended mark).
final class FeedTextBytesTests: XCTestCase {
    func testEveryListedScalarIsACharacterOfItsOwnAndEqualsNoASCII() {
        // ASCII, and the dashes and ellipsis a clipped summary compares with.
        let ascii = Set((0..<128).map { Character(Unicode.Scalar(UInt8($0))) } + ["–", "—", "…"])
        var listed = 0
        for v in UInt32(0)...0x10FFFF where SingleScalarCharacters.contains(v) {
            guard let scalar = Unicode.Scalar(v) else { return XCTFail("U+\(String(v, radix: 16)) is no scalar") }
            listed += 1
            let s = String(scalar)
            // Nothing joins it on either side: not a mark or joiner ("a" + it), not prepended
            // (it + "a"), not a Hangul jamo or regional indicator (it + it).
            for pair in ["a" + s, s + "a", s + s, " " + s, s + " "] where pair.count != 2 {
                XCTFail("U+\(String(v, radix: 16)) joins a neighbour into one Character")
            }
            let character = Character(scalar)
            if v >= 0x80, ![0x2013, 0x2014, 0x2026].contains(v), ascii.contains(character) {
                XCTFail("U+\(String(v, radix: 16)) is canonically another character")
            }
            XCTAssertEqual(SingleScalarCharacters.isWhitespace(v), character.isWhitespace || character.isNewline,
                           "U+\(String(v, radix: 16))")
        }
        XCTAssertGreaterThan(listed, 30_000)
        XCTAssertFalse(SingleScalarCharacters.contains(0x37E), "U+037E is a `;`")
        XCTAssertFalse(SingleScalarCharacters.contains(0x301), "a combining mark")
    }

    func testTheBytePassGivesWhatDecodingAndCollapsingGive() {
        var random = SeededRandom(seed: 26)
        for _ in 0..<20_000 {
            let text = random.text(from: Self.pieces)
            let expected = TextCleaning.collapseWhitespace(TextCleaning.decodeEntities(text))
            XCTAssertEqual(Array(FeedText.decodedAndCollapsed(text).unicodeScalars), Array(expected.unicodeScalars),
                           "\(Array(text.unicodeScalars))")
        }
    }

    /// collapseWhitespace's byte and Character walks give what splitting the text on whitespace
    /// Characters and joining the pieces with one space gives.
    func testCollapsingGivesWhatSplittingOnWhitespaceCharactersGives() {
        var random = SeededRandom(seed: 29)
        for _ in 0..<20_000 {
            let text = random.text(from: Self.pieces)
            let expected = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
            XCTAssertEqual(Array(TextCleaning.collapseWhitespace(text).unicodeScalars), Array(expected.unicodeScalars),
                           "\(Array(text.unicodeScalars))")
        }
        XCTAssertEqual(TextCleaning.collapseWhitespace(" a \r\n\t b\u{B}\u{C}c \u{1C}d "), "a b c \u{1C}d")
        XCTAssertEqual(TextCleaning.collapseWhitespace("a \u{0600}b \u{200D}c"), "a \u{0600}b c", "a joiner after a space")
        XCTAssertEqual(TextCleaning.collapseWhitespace("a \u{301}b\u{A0}\u{3000}c"), "a b c")
    }

    /// The check that lets an already collapsed text through untouched never passes one that the
    /// Character walk would change, whether a space is joined by what follows it or not.
    func testATextFoundCollapsedIsOneThatCollapsingLeavesAlone() {
        var random = SeededRandom(seed: 31)
        let pieces = Self.pieces + ["—", "’", "é", "\u{301}", "\u{200D}", "\u{0600}", "\u{A0}", "\u{2028}", "\u{205F}", "👍🏽", "x y"]
        var passed = 0
        for _ in 0..<20_000 {
            let text = random.text(from: pieces)
            let single = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
            for candidate in [text, single] where TextCleaning.isCollapsed(candidate) {
                passed += 1
                let walked = candidate.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
                XCTAssertEqual(Array(walked.unicodeScalars), Array(candidate.unicodeScalars), "\(Array(candidate.unicodeScalars))")
            }
        }
        XCTAssertGreaterThan(passed, 1_000, "the check lets common texts through")
        XCTAssertTrue(TextCleaning.isCollapsed("Talks resume — and stall’s end"))
        XCTAssertFalse(TextCleaning.isCollapsed("a \u{301}b"), "a mark joins the space")
        XCTAssertFalse(TextCleaning.isCollapsed(" a"))
        XCTAssertFalse(TextCleaning.isCollapsed("a "))
    }

    func testAFallBackToTheCharacterWalkWhereBytesWouldDiffer() {
        // A space and the combining mark after it are one Character, which collapses whole; by
        // bytes the mark would stay.
        XCTAssertEqual(FeedText.decodedAndCollapsed("a \u{301}b"), "a b")
        // The same with the mark decoded from an entity, and a `;` written as U+037E.
        XCTAssertEqual(FeedText.decodedAndCollapsed("a &#x301;b"), "a b")
        XCTAssertEqual(FeedText.decodedAndCollapsed("&amp\u{37E} x"), "& x")
        // A mark on the `;` makes it another Character: no entity.
        XCTAssertEqual(Array(FeedText.decodedAndCollapsed("&amp;\u{301}").unicodeScalars), Array("&amp;\u{301}".unicodeScalars))
    }

    func testStripTagsLeavesTextWithoutALessThanCharacterAlone() {
        var random = SeededRandom(seed: 27)
        for _ in 0..<5_000 {
            let text = random.text(from: Self.pieces + ["<b>", "</b>", "<", "\u{600}<b>", "<\u{338}"])
            if !text.contains("<") { XCTAssertEqual(FeedText.stripTags(text), text) }
        }
        // An Arabic number sign takes the `<` into its Character: no tag is seen.
        XCTAssertEqual(FeedText.stripTags("\u{600}<b>x"), "\u{600}<b>x")
        XCTAssertEqual(FeedText.stripTags("x<b>y</b>"), "xy")
    }

    func testDoubleEncodingRepairAndClipAgreeWithTheCharacterCode() {
        var random = SeededRandom(seed: 28)
        let pieces = Self.pieces + ["Ã©", "Ã", "Â»", "\u{FF}", "\u{80}", "\u{100}", ",", "-", "–", "—", "word ", "ab cd ef", "…"]
        for _ in 0..<5_000 {
            let text = random.text(from: pieces)
            XCTAssertEqual(Array(FeedText.repairingDoubleEncoding(text).unicodeScalars),
                           Array(Self.repairedByScalars(text).unicodeScalars))
            for limit in [3, 8, 20] {
                XCTAssertEqual(Array(FeedText.clip(text, to: limit).unicodeScalars),
                               Array(FeedText.clipByCharacters(text, to: limit).unicodeScalars), "\(Array(text.unicodeScalars)) at \(limit)")
            }
        }
        XCTAssertEqual(FeedText.repairingDoubleEncoding("imputÃ© Ã©tÃ©"), "imputé été")
        XCTAssertEqual(FeedText.repairingDoubleEncoding("Café"), "Café")
    }

    func testDateTokensCompareByBytesOnlyWhenTheyAreASCII() {
        // An ASCII day name is one by bytes as by Characters; with a combining mark on its `n` it
        // is no day name (the Characters differ) though its bytes still start with "mon".
        XCTAssertNotNil(FeedDates.parse("Mon, 07 Jan 2017 13:57:13 GMT"))
        XCTAssertNil(FeedDates.parse("Mon\u{301}, 07 Jan 2017 13:57:13 GMT"))
        XCTAssertNil(FeedDates.parse("Mon, 07 Jan\u{301} 2017 13:57:13 GMT"))
    }

    /// The scalar-by-scalar repair the byte version replaced, as the reference.
    private static func repairedByScalars(_ text: String) -> String {
        var bytes: [UInt8] = []
        var multiByte = false
        for scalar in text.unicodeScalars {
            guard scalar.value <= 0xFF else { return text }
            if scalar.value >= 0x80 { multiByte = true }
            bytes.append(UInt8(scalar.value))
        }
        guard multiByte, let repaired = String(validating: bytes, as: UTF8.self) else { return text }
        return repaired
    }

    private static let pieces = [
        "a", "Z", "9", " ", "  ", "\t", "\n", "\r\n", "\r", "\u{B}", "\u{1C}", "&", ";", "#", "x", "amp", "nbsp", "#38", "#x41",
        "&amp;", "&nbsp;", "&#38;", "&#x41;", "&#0;", "&#+65;", "&#-0;", "&#x301;", "&#10;", "&#13;", "&#8217;", "&#xA0;",
        "&eacute;", "&bogus;", "&#xD800;", "&#1114112;", "&hellip;", "&a&amp;", "&#x20;", "&;", "&&", "&amp\u{37E}",
        "é", "e\u{301}", "\u{301}", "\u{37E}", "\u{A0}", "\u{85}", "\u{2003}", "\u{2028}", "\u{3000}", "中", "한", "\u{1100}",
        "\u{200D}", "\u{200C}", "👍", "👍🏽", "🇩🇪", "\u{600}", "\u{915}\u{94D}\u{937}", "\u{FEFF}", "\u{200B}", "Ω", "\u{212A}",
        "’", "—", "€", "™", "ｶ", "\u{FF9E}",
    ]
}
