import Foundation
import XCTest
@testable import HeadlinesCore
@testable import HeadlinesSources

/// A title is cut once, where it arrives, so nothing downstream (bar lines at every rotation,
/// keyword matching) ever works on the hundreds of kilobytes a server may send.
final class TitleLengthTests: XCTestCase {
    func testAHugeTitleIsCutWhereItArrives() throws {
        // Given an APITube article whose title is 400 KB
        let huge = String(repeating: "word ", count: 80_000)
        let body = #"{"status":"ok","results":[{"id":1,"title":"\#(huge)","description":"\#(huge)","href":"https://a.example/1"}]}"#
        // When it is decoded
        let headline = try XCTUnwrap(APITubeProvider.decode(HTTPResponse(status: 200, headers: [:], body: Data(body.utf8)),
                                                            now: Date(timeIntervalSince1970: 0)).first)
        // Then the title and summary are cut to their limits, ending in an ellipsis
        XCTAssertLessThanOrEqual(headline.title.count, TextCleaning.titleLimit)
        XCTAssertTrue(headline.title.hasSuffix("…"))
        XCTAssertLessThanOrEqual(headline.summary?.count ?? 0, TextCleaning.summaryLimit)
        // And a title of ordinary length is left whole
        XCTAssertEqual(TextCleaning.plainTitle("Storm &amp; flood"), "Storm & flood")
    }
}
