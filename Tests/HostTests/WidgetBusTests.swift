import Foundation
import TestSupport
import XCTest

/// What a widget drawn outside the host (the GNOME Shell extension) needs from the bus besides the
/// headlines: the length bars cut titles to, and which headlines have a discussion page.
final class WidgetBusTests: HostTestCase {
    func testGetStatusSaysTheBarsMaxLength() throws {
        // Given [bar] max-length = 33
        try writeConfig(interval: "1h", dailyBudget: 10)
        try cli.writeConfig(String(contentsOf: configFile, encoding: .utf8) + "\n[bar]\nmax-length=33\n", at: configFile)
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)

        // Then GetStatus says so
        let status = try bus.callHost("GetStatus", [""])
        XCTAssertEqual(status.status, 0, status.output)
        XCTAssertTrue(status.output.contains("'max_length': <33>"), status.output)
    }

    func testListDiscussionsPairsEachHackerNewsHeadlinesKeyWithItsDiscussion() throws {
        // Given Hacker News, whose every story has a discussion page
        server.route("/api/v1/search", .json(FixturePaths.data("hackernews/front-page.json")))
        try cli.writeConfig("[source]\nprovider=hackernews\nbase-url=\(server.baseURL.absoluteString)\n[refresh]\ninterval=1h\ndaily-budget=10\n",
                            at: configFile)
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)

        // Then ListDiscussions gives the story's key, as ListHeadlines gives it, and the discussion
        let listed = try bus.callHost("ListHeadlines", [""]).output
        let discussions = try bus.callHost("ListDiscussions", [""])
        XCTAssertEqual(discussions.status, 0, discussions.output)
        let key = try XCTUnwrap(firstMatch(#"'([0-9a-f]{16})', 'Writing a GPU driver in Rust, one year later'"#, in: listed), listed)
        XCTAssertTrue(discussions.output.contains("('\(key)', 'https://news.ycombinator.com/item?id=46101234')"), discussions.output)
        XCTAssertEqual(discussions.output.components(separatedBy: "https://news.ycombinator.com/item?id=").count - 1, 4,
                       "one discussion a story: \(discussions.output)")
    }

    func testListDiscussionsIsEmptyForASourceWithoutThem() throws {
        // Given APITube, which has no discussion pages
        try writeConfig(interval: "1h", dailyBudget: 10)
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)

        // Then ListDiscussions answers, with nothing
        let discussions = try bus.callHost("ListDiscussions", [""])
        XCTAssertEqual(discussions.status, 0, discussions.output)
        XCTAssertEqual(discussions.output.trimmingCharacters(in: .whitespacesAndNewlines), "(@a(ss) [],)")
    }

    private func firstMatch(_ pattern: String, in text: String) -> String? {
        let regex = try? NSRegularExpression(pattern: pattern)
        guard let match = regex?.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range(at: 1), in: text) else { return nil }
        return String(text[range])
    }
}
