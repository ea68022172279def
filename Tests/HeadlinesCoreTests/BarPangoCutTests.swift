import Foundation
import HeadlinesCore
import XCTest

/// i3blocks cuts full_text at 1023 bytes (700 for our JSON values): the text is cut before it is
/// escaped, so Pango never sees a broken entity such as `&am`, and a long source is shortened.
final class BarPangoCutTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func state(title: String, source: String) -> BarState {
        BarState(headlines: [Headline(id: "1", title: title, url: URL(string: "https://example.com/a")!, source: source,
                                      publishedAt: now.addingTimeInterval(-3600))], index: 0, freshness: .fresh)
    }

    /// Pango markup without tags: every `&` starts a whole entity, no raw `<` or `>`.
    private func assertValidPango(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(text.contains("<") || text.contains(">"), "raw markup in \(text.prefix(80))", file: file, line: line)
        // Bytes, not Characters: a combining mark joins the `;` or `&` before it into one Character.
        let bytes = Array(text.utf8)
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "&") {
            let tail = bytes[i...]
            XCTAssertTrue(["&amp;", "&lt;", "&gt;"].contains { tail.starts(with: $0.utf8) },
                          "broken entity at …\(String(decoding: tail.prefix(12), as: UTF8.self))", file: file, line: line)
        }
    }

    func testAmpersandTitleIsCutBeforeEscapingInEveryI3blocksForm() {
        // Given a title of 2000 ampersands and a 500-character source, at the longest max-length
        let hostile = state(title: String(repeating: "&", count: 2000), source: String(repeating: "S&", count: 250))

        // When each i3blocks form renders it with Pango markup
        let oneShot = I3blocksRenderer.oneShot(hostile, maxLength: 500, pango: true).split(separator: "\n", omittingEmptySubsequences: false)
        let persist = I3blocksRenderer.persistLine(hostile, maxLength: 500, pango: true)
        let json = I3blocksRenderer.persistJSONLine(hostile, maxLength: 500, pango: true)

        // Then every text is whole Pango within i3blocks' limits
        for text in [String(oneShot[0]), String(oneShot[1]), String(persist.dropLast())] {
            XCTAssertLessThanOrEqual(text.utf8.count, I3blocksRenderer.maxLineBytes)
            XCTAssertFalse(text.isEmpty)
            assertValidPango(text)
        }
        XCTAssertTrue(oneShot[0].hasSuffix("…"), "a cut text ends in an ellipsis")
        XCTAssertLessThanOrEqual(json.utf8.count, 1024)
        let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
        XCTAssertNotNil(object, "one JSON object: \(json.prefix(100))")
        for key in ["full_text", "short_text"] {
            let value = object?[key] ?? ""
            XCTAssertLessThanOrEqual(value.utf8.count, key == "full_text" ? 700 : 250)
            assertValidPango(value)
        }
    }

    func testLongSourceIsShortenedInTheBlockAndTheTooltip() {
        let long = state(title: "Short title", source: String(repeating: "x", count: 500))
        let full = I3blocksRenderer.persistLine(long, maxLength: 60, pango: false)
        XCTAssertEqual(full, "Short title — " + String(repeating: "x", count: BarText.maxSourceLength - 1) + "…\n")
        let tooltip = WaybarRenderer.line(long, now: now, maxLength: 60).tooltip
        XCTAssertLessThan(tooltip.count, 120, tooltip)
    }

    func testCombiningMarkAfterAmpersandIsStillEscaped() {
        // "&" + U+0301 is one Character: an escape that compares Characters lets the & through.
        let text = I3blocksRenderer.persistLine(state(title: "A &\u{301} B", source: "s"), maxLength: 60, pango: true)
        assertValidPango(text)
        assertValidPango(WaybarRenderer.line(state(title: "A &\u{301} B", source: "s"), now: now, maxLength: 60).text)
    }

    func testConfigErrorStateShowsTheErrorClassInEveryBar() {
        let error = BarState(configError: "/x/headlines.conf: unknown key 'typo' in [source] <&>.")
        let waybar = WaybarRenderer.line(error, now: now, maxLength: 60)
        XCTAssertEqual(waybar.text, "headlines: config error (see headlines status)")
        XCTAssertEqual(waybar.class, ["error"])
        XCTAssertEqual(waybar.tooltip, "<i>/x/headlines.conf: unknown key 'typo' in [source] &lt;&amp;&gt;.</i>")
        XCTAssertEqual(I3blocksRenderer.oneShot(error, maxLength: 60, pango: true),
                       "headlines: config error (see headlines status)\nheadlines: config error\n#BF616A\n")
        XCTAssertEqual(I3blocksRenderer.persistJSONLine(error, maxLength: 60, pango: false),
                       ##"{"full_text":"headlines: config error (see headlines status)","short_text":"headlines: config error","color":"#BF616A"}"## + "\n")
        let lines = BarLines.render(error, now: now, maxLength: 60)
        XCTAssertEqual(lines.count, BarLines.Variant.allCases.count)
        XCTAssertTrue(lines.values.allSatisfy { $0.contains("headlines: config error") })
    }
}
