import Foundation
import XCTest
@testable import HeadlinesCore

/// What real API responses need beyond the documented shape (issue 12, item 4). Each test names
/// one behaviour; the fixtures are hand-written to pin it down.
final class RealResponseDecodingTests: XCTestCase {
    // MARK: links

    func testTabsAndNewlinesInsideAnAPITubeLinkAreRemovedNotEncoded() throws {
        // Given an APITube article whose href and image carry tabs and line breaks
        let response = Fixture.response("apitube/href-with-tabs-and-newlines.json")
        // When it is decoded
        let headlines = try APITubeProvider.decode(response, now: fixtureNow)
        // Then the links are the ones a browser would open
        XCTAssertEqual(headlines.map(\.url), [url("https://www.example.com/news/2026/11/29/long-story?id=7")])
        XCTAssertEqual(headlines.map(\.imageURL), [url("https://img.example.com/pic.jpg")])
    }

    func testTabsAndNewlinesInsideANewsAPILinkAreRemovedNotEncoded() throws {
        let headlines = try NewsAPIProvider.decode(Fixture.response("newsapi/url-with-tabs-and-newlines.json"), now: fixtureNow)
        XCTAssertEqual(headlines.map(\.url), [url("https://www.example.com/2026/11/29/long-story.html")])
        XCTAssertEqual(headlines.map(\.id), ["https://www.example.com/2026/11/29/long-story.html"])
        XCTAssertEqual(headlines.map(\.imageURL), [url("https://img.example.com/pic.jpg")])
    }

    func testTabsAndNewlinesInAJSONLinkOrTemplateValueAreRemoved() throws {
        let body = Data(#"[{"id":"\n12\t","title":"T","url":"https://ex.com/a\n/b"}]"#.utf8)
        let direct = try JSONAPIProvider.decode(body, paths: .init(), source: "ex.com", now: fixtureNow)
        XCTAssertEqual(direct.map(\.url), [url("https://ex.com/a/b")])
        let templated = try JSONAPIProvider.decode(body, paths: .init(link: nil, linkTemplate: "https://ex.com/p/{id}"),
                                                   source: "ex.com", now: fixtureNow)
        XCTAssertEqual(templated.map(\.url), [url("https://ex.com/p/12")])
    }
}
