import XCTest
@testable import HeadlinesCore

/// The published timeline grows with the headlines, not with entries x headlines (500
/// headlines rotating every second made a 727 MiB timeline.json).
final class PublishedTimelineSizeTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func headlines(_ n: Int) -> [Headline] {
        (0..<n).map { i in
            Headline(id: "id-\(i)", title: String(repeating: "Headline number \(i) ", count: 5),
                     url: URL(string: "https://example.com/\(i)")!, source: "Source \(i % 7)",
                     publishedAt: now.addingTimeInterval(-Double(i) * 60))
        }
    }

    func testFiveHundredHeadlinesRotatingEverySecondStayUnderAMegabytePerHundredHeadlines() throws {
        // Given 500 headlines rotating every second for 30 minutes (720 entries, the cap)
        let layout = TimelineLayout(interval: 1800, rotate: 1)
        let content = WidgetContent(headlines: headlines(500), freshness: .fresh, fetchedAt: now)
        let timeline = layout.rotating(content, from: now, until: now.addingTimeInterval(1800))
        XCTAssertEqual(timeline.entries.count, 720)

        // When it is encoded as the host publishes it
        let data = try StateJSONEncoder.headlines().encode(timeline)

        // Then it holds the list once: about the size of the headlines, plus a few dozen bytes an entry
        let listOnly = try StateJSONEncoder.headlines().encode(content.headlines)
        XCTAssertLessThan(data.count, listOnly.count + 720 * 80, "timeline.json is \(data.count) bytes")
    }

    func testTheCompactFormReadsBackAsTheSameTimeline() throws {
        let layout = TimelineLayout(interval: 60, rotate: 10)
        let content = WidgetContent(headlines: headlines(4), freshness: .stale, fetchedAt: now, error: "The feed timed out.")
        let timeline = layout.rotating(content, from: now, until: now.addingTimeInterval(60))
        let back = try StateJSONDecoder.headlines().decode(Timeline.self, from: StateJSONEncoder.headlines().encode(timeline))
        XCTAssertEqual(back, timeline)
        XCTAssertEqual(back.entries.map(\.content.index), [0, 1, 2, 3, 0, 1])
    }

    func testAnEntryNamingAMissingContentIsRefusedNotTrusted() {
        let text = #"{"contents":[],"entries":[{"content":3,"date":"2027-01-15T08:00:00.000Z","index":0}],"policy":{"never":{}}}"#
        XCTAssertThrowsError(try StateJSONDecoder.headlines().decode(Timeline.self, from: Data(text.utf8)))
    }
}
