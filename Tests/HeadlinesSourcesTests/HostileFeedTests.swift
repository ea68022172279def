import Foundation
import XCTest
import HeadlinesCore
import HeadlinesSources
import TestSupport

/// Untrusted feeds: hostile content comes out as clean values, and broken or dangerous documents
/// as one clear error, never a crash or a hang.
final class HostileFeedTests: XCTestCase {
    func testHostileFixtureIsReducedToCleanValues() throws {
        // Given scripts and markup in titles, javascript: and file: links, xml:base, undeclared
        // entities, a bare &, broken and missing dates, duplicate links, 100-deep nesting and a huge title
        // When it is parsed
        let document = try FeedFixture.parse("hostile.xml")

        // Then only text and http(s) URLs come out, and the huge title is kept for the bars to cut
        let longTitle = Array(repeating: "Long", count: 1000).joined(separator: " ")
        XCTAssertEqual(document, FeedDocument(
            title: "Hostile & Broken Feed", link: url("https://feeds.example.com/hostile/index.html"),
            items: [
                FeedItem(title: "Breaking: Tom & Jerry", id: "h-1", summary: "Click here"),
                FeedItem(title: "Markets rally & bonds slip", link: url("https://base.example.org/news/stories/2.html"),
                         id: "h-2", summary: "Prices rose in cafés & bars &unknownentity; today.",
                         imageURL: url("https://base.example.org/img/2.jpg")),
                FeedItem(title: "Fish & Chips and newlines and tabs", link: url("https://example.org/a"),
                         id: "h-3", published: date("2006-01-02T20:04:00Z")),
                FeedItem(link: url("https://example.org/deep"), summary: "deep text"),
                FeedItem(title: longTitle, link: url("https://example.org/permalink/5"),
                         id: "https://example.org/permalink/5"),
            ]))
    }

    func testTruncatedXMLIsAMalformedFeedWithItsLine() {
        // Given a feed cut off in the middle
        // When it is parsed
        let error = thrownError { () throws(FeedError) in try FeedFixture.parse("malformed.xml") }

        // Then the error says where and why
        XCTAssertEqual(error, FeedError(reason: "malformed XML at line 14: the document ends early (truncated?)"))
    }

    func testAnHTMLPageIsNotAFeed() {
        // Given an HTML page where a feed was expected
        // When it is parsed
        let error = thrownError { () throws(FeedError) in try FeedFixture.parse("not-a-feed.html") }

        // Then the error names the root
        XCTAssertEqual(error, FeedError(reason: "not a feed: the document's root is <html>"))
    }

    func testABodyOver4MiBIsRefusedBeforeParsing() {
        // Given a body one byte over the cap
        let data = Data(repeating: 0x20, count: 4 * 1024 * 1024 + 1)

        // When it is parsed
        let error = thrownError { () throws(FeedError) in try FeedParser.parse(data, baseURL: nil) }

        // Then it is refused
        XCTAssertEqual(error, FeedError(reason: "the feed is larger than 4 MiB"))
    }

    func testEntityDeclarationsAreRefused() {
        // Given the billion-laughs document
        var lol = "<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY lol0 \"lol\">"
        for n in 1...9 { lol += "<!ENTITY lol\(n) \"" + String(repeating: "&lol\(n - 1);", count: 10) + "\">" }
        lol += "]><rss><channel><title>&lol9;</title></channel></rss>"

        // When it is parsed
        let error = thrownError { () throws(FeedError) in try FeedParser.parse(Data(lol.utf8), baseURL: nil) }

        // Then it is refused without expanding anything
        XCTAssertEqual(error, FeedError(reason: "the feed declares its own entities (<!ENTITY>), which is refused"))
    }

    func testNestingPastTheDepthCapIsFlattenedIntoText() throws {
        // Given 200 nested elements inside an item title (past our cap of 64, within libxml2's 256)
        let depth = 200
        let xml = "<rss><channel><item><title>" + String(repeating: "<b>", count: depth) + "x"
            + String(repeating: "</b>", count: depth) + "</title></item></channel></rss>"

        // When it is parsed
        let document = try FeedParser.parse(Data(xml.utf8), baseURL: nil)

        // Then the elements below the depth cap are flattened into their ancestor's text
        XCTAssertEqual(document, FeedDocument(items: [FeedItem(title: "x")]))
    }

    func testVeryDeepNestingStopsTheParseWithoutLosingEarlierItems() throws {
        // Given an ordinary item, then 100 000 nested elements inside the next item's title
        let depth = 100_000
        let xml = "<rss><channel><item><title>first</title></item><item><title>" + String(repeating: "<b>", count: depth)
            + "x" + String(repeating: "</b>", count: depth) + "</title></item></channel></rss>"

        // When it is parsed
        let document = try FeedParser.parse(Data(xml.utf8), baseURL: nil)

        // Then libxml2 stops at its own depth limit (256: XML_PARSE_HUGE is never set), the item it
        // stopped inside is dropped as unfinished, and the one before it is kept
        XCTAssertEqual(document, FeedDocument(items: [FeedItem(title: "first")]))
    }

    func testOtherDocumentsAreNotFeeds() {
        // Given an empty body, an XML document of another kind, and JSON that is no JSON Feed
        let cases: [(String, String)] = [
            ("  \n", "the feed is empty"),
            ("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>", "not a feed: the document's root is <svg>"),
            ("{\"status\": \"ok\", \"articles\": []}", "not a feed: JSON without a JSON Feed version"),
            ("{\"version\": \"https://jsonfeed.org/version/1\", \"items\": [", "malformed JSON: The given data was not valid JSON."),
        ]
        for (body, reason) in cases {
            // When each is parsed
            let error = thrownError { () throws(FeedError) in try FeedParser.parse(Data(body.utf8), baseURL: nil) }

            // Then each gets its own reason
            XCTAssertEqual(error?.reason, reason, body)
        }
    }

    func testPrefixesUsedWithoutTheirDeclarationGetTheirUsualNamespace() throws {
        // Given RSS using atom:, dc: and an unknown prefix without declaring any of them
        let xml = """
            <rss version="2.0"><channel><title>T</title><item>
            <x:link>https://wrong.example.org/</x:link>
            <atom:link rel="self" href="https://example.org/feed"/>
            <atom:link rel="alternate" href="https://example.org/story"/>
            <dc:creator>Ann</dc:creator></item></channel></rss>
            """

        // When it is parsed
        let document = try FeedParser.parse(Data(xml.utf8), baseURL: nil)

        // Then atom: and dc: are read as Atom and Dublin Core, and the unknown prefix is ignored
        XCTAssertEqual(document, FeedDocument(title: "T", items: [
            FeedItem(link: url("https://example.org/story"), authors: ["Ann"]),
        ]))
    }
}
