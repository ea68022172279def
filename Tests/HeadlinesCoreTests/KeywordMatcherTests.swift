import Foundation
import HeadlinesCore
import XCTest

/// `[notify] keywords` and `mute-words`: whole words, any case, phrases, any script.
final class KeywordMatcherTests: XCTestCase {
    private func matches(_ keywords: [String], _ text: String) -> Bool { KeywordMatcher(keywords).matches(text) }

    func testCaseDoesNotMatter() {
        XCTAssertTrue(matches(["ai"], "New AI rules"))
        XCTAssertTrue(matches(["AI"], "the ai act"))
        XCTAssertTrue(matches(["Zürich"], "ZÜRICH votes"))
    }

    func testOnlyWholeWordsMatch() {
        XCTAssertTrue(matches(["AI"], "AI rules"))
        XCTAssertTrue(matches(["AI"], "a new AI."))
        XCTAssertTrue(matches(["AI"], "(AI), AI-made, AI's"))
        XCTAssertFalse(matches(["AI"], "he said so"))
        XCTAssertFalse(matches(["AI"], "AIDS research"))
        XCTAssertFalse(matches(["AI"], "AI2 and 3AI"), "a digit right beside it is part of the word")
        XCTAssertFalse(matches(["AI"], "MAIN"))
    }

    func testPunctuationInsideAKeywordIsLiteral() {
        XCTAssertTrue(matches(["AT&T"], "AT&T buys"))
        XCTAssertTrue(matches(["C++"], "why C++ lasts"))
        XCTAssertFalse(matches(["AT&T"], "AT T"))
    }

    func testPhrasesMatchAcrossAnyRunOfSpaces() {
        XCTAssertTrue(matches(["climate change"], "On climate change, again"))
        XCTAssertTrue(matches(["climate change"], "Climate   change\tnow"))
        XCTAssertTrue(matches(["  climate   change "], "climate change"), "the keyword's own spacing does not matter")
        XCTAssertFalse(matches(["climate change"], "climatechange"))
        XCTAssertFalse(matches(["climate change"], "climate changes"))
        XCTAssertFalse(matches(["climate change"], "climate and change"))
    }

    func testNonASCIIWords() {
        XCTAssertTrue(matches(["São Paulo"], "Rain in SÃO PAULO today"))
        XCTAssertTrue(matches(["Москва"], "МОСКВА: новости"))
        XCTAssertTrue(matches(["москва"], "Москва, 1 декабря"))
        XCTAssertFalse(matches(["Москва"], "Москвада"), "a Cyrillic letter after it is part of the word")
        XCTAssertFalse(matches(["Zürich"], "Zürichsee"))
        // Greek: upper-case ΟΔΟΣ lowers to "οδοσ", the word written in lower case ends in ς.
        XCTAssertTrue(matches(["οδός"], "ΝΈΑ ΟΔΌΣ"))
        XCTAssertTrue(matches(["ΟΔΌΣ"], "νέα οδός"))
    }

    func testPrecomposedAndDecomposedAccentsAreTheSame() {
        let precomposed = "Caf\u{E9}"
        let decomposed = "Cafe\u{301}"
        XCTAssertTrue(matches([precomposed], "Le \(decomposed) ouvre"))
        XCTAssertTrue(matches([decomposed], "Le \(precomposed) ouvre"))
        XCTAssertFalse(matches(["Cafe"], "Le \(decomposed) ouvre"), "e + U+0301 is not a plain e")
        XCTAssertFalse(matches(["AI"], "AI\u{301}"), "a combining mark after it is part of the word")
        XCTAssertFalse(matches(["AI"], "\u{301}AI"), "so is a lone combining mark before it")
    }

    func testTheSummaryCountsAndEmptyMatchesNothing() {
        let h = Headline(id: "1", title: "Markets today", url: URL(string: "https://example.com/")!, source: "x",
                         publishedAt: Date(timeIntervalSince1970: 0), summary: "Shares of Nvidia rose")
        XCTAssertTrue(KeywordMatcher(["nvidia"]).matches(h))
        XCTAssertFalse(KeywordMatcher(["apple"]).matches(h))
        XCTAssertTrue(KeywordMatcher([]).isEmpty)
        XCTAssertTrue(KeywordMatcher(["", "  "]).isEmpty)
        XCTAssertFalse(KeywordMatcher([]).matches(h))
    }
}
