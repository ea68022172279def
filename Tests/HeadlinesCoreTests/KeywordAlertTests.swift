import Foundation
import HeadlinesCore
import TestSupport
import XCTest

/// What keywords and mute-words do to notifications and bars.
final class KeywordAlertTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00 UTC
    private var zone: TimeZoneOverride?

    override func setUp() { zone = TimeZoneOverride("UTC0") }

    override func tearDown() { zone?.restore() }

    private func headline(_ id: String, _ title: String, minutesAgo: Double = 90) -> Headline {
        Headline(id: id, title: title, url: URL(string: "https://example.com/\(id)")!, source: "example.com",
                 publishedAt: now.addingTimeInterval(-minutesAgo * 60))
    }

    private var seenOnce: SeenSet { var s = SeenSet(); s.insert("old", at: now); return s }

    // MARK: - Notifications

    func testOnlyMatchingHeadlinesAreNotifiedAndTheRestAreMarkedSeen() {
        // Given keywords and a reload with two matching headlines among four
        let fetched = [headline("a", "AI rules passed", minutesAgo: 4), headline("b", "Weather", minutesAgo: 3),
                       headline("c", "He said no", minutesAgo: 2), headline("d", "Zürich and AI", minutesAgo: 1)]
        // When planned
        let plan = NotificationPlanner.plan(fetched: fetched, seen: seenOnce, muted: MutedSources(),
                                            alerts: KeywordAlerts(keywords: KeywordMatcher(["ai"])), maxPerRefresh: 3, now: now)
        // Then only the matches are posted, oldest first, and every one is seen
        XCTAssertEqual(plan.post.map(\.id), ["a", "d"])
        XCTAssertEqual(plan.more, 0)
        XCTAssertTrue(fetched.allSatisfy { plan.seen.contains($0.id) }, "removing the keyword later must not flood")
        // And without keywords all four are new (today's behaviour)
        let all = NotificationPlanner.plan(fetched: fetched, seen: seenOnce, muted: MutedSources(), maxPerRefresh: 5, now: now)
        XCTAssertEqual(all.post.map(\.id), ["a", "b", "c", "d"])
    }

    func testMuteWordsAreNeverNotified() {
        let fetched = [headline("a", "Celebrity gossip", minutesAgo: 2), headline("b", "Budget vote", minutesAgo: 1)]
        let muted = MutedSources(words: KeywordMatcher(["gossip"]))
        let plan = NotificationPlanner.plan(fetched: fetched, seen: seenOnce, muted: muted, maxPerRefresh: 3, now: now)
        XCTAssertEqual(plan.post.map(\.id), ["b"])
        XCTAssertTrue(plan.seen.contains("a"))
    }

    func testHeadlineNotificationsApplyTheAlertsItIsGiven() throws {
        let dir = try makeTempDir(self)
        let paths = XDGPaths(environment: ["XDG_STATE_HOME": dir, "XDG_RUNTIME_DIR": dir, "HOME": dir])
        let notifier = CountingNotifier()
        let notifications = HeadlineNotifications(notifier: notifier, paths: paths, maxPerRefresh: 3, warn: { _ in })
        notifications.reloaded([headline("old", "Old")], now: now)
        notifier.posted = []
        notifications.alerts = KeywordAlerts(keywords: KeywordMatcher(["budget"]), muteWords: KeywordMatcher(["vote"]))
        let plan = notifications.reloaded([headline("a", "Budget vote"), headline("b", "Budget plan"), headline("c", "Rain")], now: now)
        XCTAssertEqual(plan.post.map(\.id), ["b"])
        XCTAssertEqual(notifier.posted.map(\.id), ["b"])
    }

    func testMuteWordsAreNotWrittenToMutedJSON() throws {
        let muted = MutedSources(["bbc"], words: KeywordMatcher(["gossip"]))
        let text = String(decoding: try JSONEncoder().encode(muted), as: UTF8.self)
        XCTAssertEqual(text, #"{"sources":["bbc"]}"#)
    }

    // MARK: - Bars

    private func state(_ titles: [String], index: Int = 0, keywords: [String]) -> BarState {
        var s = BarState(headlines: titles.enumerated().map { headline("\($0.offset)", $0.element) }, index: index,
                         freshness: .fresh)
        s.keywords = KeywordMatcher(keywords)
        return s
    }

    func testWaybarMarksAMatchWithItsClassAndBoldTooltipLines() {
        // Given keywords, the matching headline on display and another matching one in the list
        let line = WaybarRenderer.line(state(["AI rules", "Weather", "More AI"], keywords: ["AI"]), now: now, maxLength: 200)
        // Then the class says so, matches are bold and the one on display is marked by ▸
        XCTAssertEqual(line.class, ["fresh", "match"])
        XCTAssertEqual(line.tooltip, "<b>▸ AI rules — example.com · 06:30</b>\nWeather — example.com · 06:30\n<b>More AI — example.com · 06:30</b>")
        // And a non-matching headline on display has no class and keeps its ▸, not bold
        let other = WaybarRenderer.line(state(["AI rules", "Weather"], index: 1, keywords: ["AI"]), now: now, maxLength: 200)
        XCTAssertEqual(other.class, ["fresh"])
        XCTAssertEqual(other.tooltip, "<b>AI rules — example.com · 06:30</b>\n▸ Weather — example.com · 06:30")
        // And without keywords the tooltip is today's: the line on display bold
        let plain = WaybarRenderer.line(state(["AI rules", "Weather"], keywords: []), now: now, maxLength: 200)
        XCTAssertEqual(plain.class, ["fresh"])
        XCTAssertEqual(plain.tooltip, "<b>AI rules — example.com · 06:30</b>\nWeather — example.com · 06:30")
    }

    func testAKeywordWithMarkupCharactersStillEscapes() throws {
        let s = state(["AT&T <buys> Q&A", "x"], keywords: ["AT&T", "<buys>"])
        let rendered = WaybarRenderer.render(s, now: now, maxLength: 200)
        let line = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(rendered.utf8)) as? [String: Any])
        XCTAssertEqual(line["text"] as? String, "AT&amp;T &lt;buys&gt; Q&amp;A")
        XCTAssertEqual(line["class"] as? [String], ["fresh", "match"])
        XCTAssertEqual(line["tooltip"] as? String, "<b>▸ AT&amp;T &lt;buys&gt; Q&amp;A — example.com · 06:30</b>\nx — example.com · 06:30")
        let pango = I3blocksRenderer.oneShot(s, maxLength: 200, pango: true)
        XCTAssertEqual(pango, "<b>AT&amp;T &lt;buys&gt; Q&amp;A — example.com</b>\n<b>AT&amp;T &lt;buys&gt; Q&amp;A</b>\n#E5E9F0\n")
    }

    func testI3blocksBoldsAMatchInPangoVariantsOnly() {
        let s = state(["AI rules"], keywords: ["ai"])
        XCTAssertEqual(I3blocksRenderer.persistLine(s, maxLength: 200, pango: true), "<b>AI rules — example.com</b>\n")
        XCTAssertEqual(I3blocksRenderer.persistJSONLine(s, maxLength: 200, pango: true),
                       ##"{"full_text":"<b>AI rules — example.com</b>","short_text":"<b>AI rules</b>","color":"#E5E9F0"}"## + "\n")
        XCTAssertEqual(I3blocksRenderer.persistLine(s, maxLength: 200, pango: false), "AI rules — example.com\n")
        XCTAssertEqual(I3blocksRenderer.oneShot(s, maxLength: 200, pango: false), "AI rules — example.com\nAI rules\n#E5E9F0\n")
        XCTAssertEqual(I3blocksRenderer.persistLine(state(["Weather"], keywords: ["ai"]), maxLength: 200, pango: true),
                       "Weather — example.com\n")
    }

    func testABoldLineStaysWithinI3blocksByteLimit() {
        let long = String(repeating: "AI &&& ", count: 100)  // 500 characters escape to over 1023 bytes
        let line = I3blocksRenderer.persistLine(state([long], keywords: ["ai"]), maxLength: 500, pango: true)
        XCTAssertLessThanOrEqual(line.utf8.count - 1, I3blocksRenderer.maxLineBytes)
        XCTAssertTrue(line.hasPrefix("<b>") && line.hasSuffix("…</b>\n"), line)
    }

    func testMuteWordsHideHeadlinesFromTheHostsTimeline() {
        let report = ReloadReport(headlines: [headline("a", "Celebrity gossip"), headline("b", "Budget")], fetchedAt: now, failure: nil)
        let result = TimelineLayout(interval: 1800, rotate: 0)
            .afterReload(report, now: now, consecutiveFailures: 0, muted: MutedSources(words: KeywordMatcher(["gossip"])))
        XCTAssertEqual(result.timeline.entries.first?.content.headlines.map(\.id), ["b"])
        XCTAssertEqual(result.fetched?.map(\.id), ["a", "b"], "notifications see every headline, and mark the muted seen")
    }
}

/// A notifier that records what it was asked to post.
private final class CountingNotifier: Notifier, @unchecked Sendable {
    var posted: [Headline] = []
    func post(_ headlines: [Headline], digests: [SourceDigest], now: Date) { posted += headlines }
    func postHeld(_ held: HeldHeadlines, now: Date) {}
}
