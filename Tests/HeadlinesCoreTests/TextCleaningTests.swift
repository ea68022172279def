import Foundation
import XCTest
@testable import HeadlinesCore

final class TextCleaningTests: XCTestCase {
    func testPlainTitle() {
        let cases: [(String, String)] = [
            ("Fish &amp; Chips", "Fish & Chips"),
            ("it&#39;s &#x2019;quoted&#x2019; &quot;here&quot;", "it's \u{2019}quoted\u{2019} \"here\""),
            ("&lt;b&gt;bold&lt;/b&gt;", "<b>bold</b>"),
            ("<b>Tom & Jerry</b>", "<b>Tom & Jerry</b>"),
            ("&amp;lt; decoded once", "&lt; decoded once"),
            ("  tabs\tand\nnew\r\nlines  ", "tabs and new lines"),
            ("A&nbsp;B &mdash; C&hellip;", "A B — C…"),
            ("&#128512; smile &#X1F600;", "\u{1F600} smile \u{1F600}"),
            ("&bogus; &#0; &#xD800; &#xZZ; & alone", "&bogus; &#0; &#xD800; &#xZZ; & alone"),
            ("AT&T;s rivals", "AT&T;s rivals"),
            ("&amp", "&amp"),
            ("", ""),
        ]
        for (raw, expected) in cases { XCTAssertEqual(TextCleaning.plainTitle(raw), expected, raw) }
    }

    func testEntityWithoutSemicolonNearbyIsLeftAlone() {
        let raw = "Q&A with the minister; later"
        XCTAssertEqual(TextCleaning.decodeEntities(raw), raw)
    }

    func testEncodedNewlineIsFoldedLikeARealOne() {
        XCTAssertEqual(TextCleaning.plainTitle("one&#10;two&#9;three"), "one two three")
    }

    func testTerminalTextReplacesControlsAndBidiButKeepsText() {
        let raw = "\u{1B}[2Jred\u{07} \u{202E}evil\u{202C} \u{2066}iso\u{2069} \u{200F}x\u{9B}y tab\there"
        XCTAssertEqual(TerminalText.safe(raw),
                       "\u{FFFD}[2Jred\u{FFFD} \u{FFFD}evil\u{FFFD} \u{FFFD}iso\u{FFFD} \u{FFFD}x\u{FFFD}y tab\u{FFFD}here")
        let fine = "مرحبا שלום \u{1F469}\u{200D}\u{1F680} café <b>&amp;</b>"
        XCTAssertEqual(TerminalText.safe(fine), fine)
    }
}
