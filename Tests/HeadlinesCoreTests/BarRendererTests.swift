import Foundation
import HeadlinesCore
import TestSupport
import XCTest

/// Golden outputs of the waybar and i3blocks renderers on hostile headlines.
final class BarRendererTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00 UTC
    // The tooltip's clock times are local: the goldens are written for UTC.
    private var zone: TimeZoneOverride?

    override func setUp() { zone = TimeZoneOverride("UTC0") }

    override func tearDown() { zone?.restore() }

    private func headline(_ title: String, source: String = "example.com", minutesAgo: Double = 90) -> Headline {
        Headline(id: title, title: title, url: URL(string: "https://example.com/a")!, source: source,
                 publishedAt: now.addingTimeInterval(-minutesAgo * 60))
    }

    /// & < > " \ a newline, a bidi override (U+202E) and emoji, in one title.
    private var hostile: Headline {
        headline("Tom & Jerry <b>\"quoted\"</b> back\\slash\nnew line \u{202E}evil\u{202C} 🎉", source: "A&B <news>")
    }

    /// The title is cut to `max-length` as the reader sees it, then escaped: escaping first would
    /// count `&amp;` as five characters and cut the headline short (or inside an entity).
    func testWaybarCutsTheTitleBeforeEscapingIt() {
        let state = BarState(headlines: [headline("AT&T wins big")], index: 0, freshness: .fresh)
        XCTAssertEqual(WaybarRenderer.line(state, now: now, maxLength: 8).text, "AT&amp;T…")
    }

    func testWaybarLineEscapesEverythingAndStaysOneLine() {
        let state = BarState(headlines: [hostile, headline("Second")], index: 0, freshness: .fresh,
                             budgetUsed: 12, budgetLimit: 48)
        let line = WaybarRenderer.render(state, now: now, maxLength: 200)
        XCTAssertEqual(line, #"{"alt":"fresh","class":["fresh"],"percentage":75,"text":"Tom &amp; Jerry &lt;b&gt;\"quoted\"&lt;/b&gt; back\\slash new line evil 🎉","tooltip":"<b>Tom &amp; Jerry &lt;b&gt;\"quoted\"&lt;/b&gt; back\\slash new line evil 🎉 — A&amp;B &lt;news&gt; · 06:30</b>\nSecond — example.com · 06:30"}"# + "\n")
        XCTAssertEqual(line.filter { $0 == "\n" }.count, 1, "exactly one line")
        XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(line.utf8)), "valid JSON")
    }

    func testWaybarMarksAPartialFailureWithItsClassAndATooltipLine() {
        // Given a fresh reload in which one of two feeds failed (the sentence carries markup)
        let state = BarState(headlines: [headline("Good")], index: 0, freshness: .fresh,
                             partialFailures: ["The feed https://a.example/x?a=1&b=<2> answered HTTP 404: check [source] feeds."])

        // When the waybar line is rendered
        let line = WaybarRenderer.line(state, now: now, maxLength: 200)

        // Then it carries the `partial` class and says which feed failed, escaped, in the tooltip
        XCTAssertEqual(line.class, ["fresh", "partial"])
        XCTAssertTrue(line.tooltip.contains("<i>1 feed failing: see headlines status</i>"), line.tooltip)
        XCTAssertTrue(line.tooltip.contains("a=1&amp;b=&lt;2&gt;"), line.tooltip)
        // And a reload where every feed answered has no such class
        XCTAssertEqual(WaybarRenderer.line(BarState(headlines: [headline("Good")], index: 0, freshness: .fresh),
                                           now: now, maxLength: 200).class, ["fresh"])
    }

    func testWaybarCutsLongTitlesAtAWordAndMarksNewStaleAndEmpty() {
        let long = headline(String(repeating: "word ", count: 410), minutesAgo: 2) // about 2 KB
        let state = BarState(headlines: [long], index: 0, freshness: .stale, error: "APITube is rate-limiting requests.")
        let line = WaybarRenderer.line(state, now: now, maxLength: 30)
        XCTAssertEqual(line.text, "word word word word word word…")
        XCTAssertEqual(line.class, ["stale", "new"])
        XCTAssertEqual(line.alt, "stale")
        XCTAssertTrue(line.tooltip.hasSuffix("<i>APITube is rate-limiting requests.</i>"))
        let empty = WaybarRenderer.line(BarState(headlines: [], index: 0, freshness: .empty, error: "boom"), now: now, maxLength: 30)
        XCTAssertEqual(empty.class, ["error"])
        XCTAssertEqual(empty.text, "Headlines unavailable")
    }

    func testI3blocksOneShotIsThreePlainLines() {
        let state = BarState(headlines: [hostile], index: 0, freshness: .fresh)
        XCTAssertEqual(I3blocksRenderer.oneShot(state, maxLength: 200, pango: false),
                       "Tom & Jerry <b>\"quoted\"</b> back\\slash new line evil 🎉 — A&B <news>\n" +
                       "Tom & Jerry <b>\"quoted\"</b> back\\slash new line evil 🎉\n" +
                       "#E5E9F0\n")
        XCTAssertEqual(I3blocksRenderer.oneShot(state, maxLength: 200, pango: true),
                       "Tom &amp; Jerry &lt;b&gt;\"quoted\"&lt;/b&gt; back\\slash new line evil 🎉 — A&amp;B &lt;news&gt;\n" +
                       "Tom &amp; Jerry &lt;b&gt;\"quoted\"&lt;/b&gt; back\\slash new line evil 🎉\n" +
                       "#E5E9F0\n")
    }

    func testI3blocksPersistLinesFitAndAvoidQuotesAndBackslashesInJSON() {
        let long = headline(String(repeating: "é", count: 2000))
        let state = BarState(headlines: [long], index: 0, freshness: .cached)
        let raw = I3blocksRenderer.persistLine(state, maxLength: 5000, pango: false)
        XCTAssertLessThanOrEqual(raw.utf8.count - 1, I3blocksRenderer.maxLineBytes)
        XCTAssertEqual(raw.filter { $0 == "\n" }.count, 1)
        XCTAssertTrue(raw.hasSuffix("\n"))
        let json = I3blocksRenderer.persistJSONLine(BarState(headlines: [hostile], index: 0, freshness: .fresh), maxLength: 200, pango: false)
        XCTAssertEqual(json, ##"{"full_text":"Tom & Jerry <b>”quoted”</b> back/slash new line evil 🎉 — A&B <news>","short_text":"Tom & Jerry <b>”quoted”</b> back/slash new line evil 🎉","color":"#E5E9F0"}"## + "\n")
        XCTAssertLessThanOrEqual(I3blocksRenderer.persistJSONLine(state, maxLength: 5000, pango: false).utf8.count, 1024)
    }

    func testStateComesFromThePublishedTimelineTurnedByTheOffset() {
        let content = WidgetContent(headlines: [headline("A"), headline("B"), headline("C")], index: 1, freshness: .fresh, fetchedAt: now)
        let published = PublishedTimeline(hostPID: 1, provider: "APITube", generation: 1, publishedAt: now,
                                          timeline: Timeline(entries: [TimelineEntry(date: now, content: content)], policy: .never),
                                          nextReload: nil, lastReload: now, lastResult: "ok", budgetUsed: 1, budgetLimit: 4)
        let entry = try! XCTUnwrap(published.timeline.entry(at: now))
        let state = BarState(entry: entry, offset: 4, budgetUsed: published.budgetUsed, budgetLimit: published.budgetLimit)
        XCTAssertEqual(state.current?.title, "C") // (1 + 4) mod 3
        XCTAssertEqual(state.budgetPercentLeft, 75)
    }
}
