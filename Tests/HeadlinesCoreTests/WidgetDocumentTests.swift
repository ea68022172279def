import BarFormats
import Foundation
import HeadlinesCore
import TestSupport
import XCTest

/// The widget document, written with the bars' hand-written JSON: keys come out in byte order.
final class WidgetDocumentTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00 UTC
    private var zone: TimeZoneOverride?

    override func setUp() { zone = TimeZoneOverride("UTC0") }
    override func tearDown() { zone?.restore() }

    func testTheWidgetDocumentIsTheSameBytesAsBeforeKeysInByteOrder() {
        // Given two headlines, one with a thumbnail
        let first = Headline(id: "https://example.com/1", title: "Tom & \"Jerry\"", url: URL(string: "https://example.com/1")!,
                             source: "example.com", publishedAt: now.addingTimeInterval(-600))
        let second = Headline(id: "https://example.com/2", title: "Second", url: URL(string: "https://example.com/2")!,
                              source: "example.org", publishedAt: now.addingTimeInterval(-7200))
        let state = BarState(headlines: [first, second], index: 1, freshness: .fresh)
        // When the document is rendered, the second opened here from a sync service
        var context = FormatLines.Context(now: now, maxLength: 80, widget: nil, thumbnails: [first.id: "/run/t.png"], updatedAt: now)
        context.readIDs = [second.id]
        let out = FormatLines.render(.json, state, context)
        // Then every key is there, in byte order, at every level
        let one = HeadlineKey.of(id: first.id), two = HeadlineKey.of(id: second.id)
        XCTAssertEqual(out, #"{"error":null,"index":1,"items":[{"age":"07:50","id":""# + one
                       + #"","match":false,"new":true,"published_at":"2027-01-15T07:50:00.000Z","read":false,"source":"example.com","thumbnail":"/run/t.png","title":"Tom & \"Jerry\"","url":"https://example.com/1"},"#
                       + #"{"age":"06:00","id":""# + two
                       + #"","match":false,"new":false,"published_at":"2027-01-15T06:00:00.000Z","read":true,"source":"example.org","thumbnail":null,"title":"Second","url":"https://example.com/2"}],"#
                       + #""stale":false,"state":"fresh","updated_at":"2027-01-15T08:00:00.000Z","widget":null}"# + "\n")
    }
}
