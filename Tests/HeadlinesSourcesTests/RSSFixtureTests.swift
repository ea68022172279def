import Foundation
import XCTest
import HeadlinesCore
import HeadlinesSources
import TestSupport

/// Each RSS version's fixture decoded into its whole expected document.
final class RSSFixtureTests: XCTestCase {
    func testRSS090InRDFGivesTitlesAndLinks() throws {
        // Given an RSS 0.90 document (RDF, items beside the channel)
        // When it is parsed
        let document = try FeedFixture.parse("rss090.xml")

        // Then the channel and both items are read
        XCTAssertEqual(document, FeedDocument(
            title: "Mozilla Dot Org", link: url("http://www.mozilla.org"),
            items: [
                FeedItem(title: "New Status Updates", link: url("http://www.mozilla.org/status/")),
                FeedItem(title: "Bugzilla Reorganized", link: url("http://www.mozilla.org/bugs/")),
            ]))
    }

    func testRSS091WithItsNetscapeDoctypeDecodesHTMLEntities() throws {
        // Given RSS 0.91 with the Netscape DOCTYPE and HTML entities it never declares
        // When it is parsed
        let document = try FeedFixture.parse("rss091.xml")

        // Then &eacute;, &nbsp; and &mdash; are decoded instead of failing the feed (a no-break space
        // is whitespace, so it collapses like any other)
        XCTAssertEqual(document, FeedDocument(
            title: "WriteTheWeb", link: url("http://writetheweb.com"),
            items: [
                FeedItem(title: "Giving the world a pluggable Gnutella",
                         link: url("http://writetheweb.com/read.php?item=24"),
                         summary: "WorldOS is a framework on which to build programs that work like Freenet or Gnutella — allowing distributed applications using peer-to-peer routing."),
                FeedItem(title: "Syndication discussions hot up & café talk",
                         link: url("http://writetheweb.com/read.php?item=23"),
                         summary: "After a period of dormancy, the Syndication mailing list has become active again."),
            ]))
    }

    func testRSS092ItemsMayHaveOnlyADescriptionAndAnImageEnclosure() throws {
        // Given RSS 0.92 with a description-only item, an audio and an image enclosure
        // When it is parsed
        let document = try FeedFixture.parse("rss092.xml")

        // Then the audio enclosure is no image, the JPEG is, and escaped markup becomes text
        XCTAssertEqual(document, FeedDocument(
            title: "Dave Winer: Grateful Dead", link: url("http://www.scripting.com/blog/categories/gratefulDead.html"),
            items: [
                FeedItem(summary: "It's been a few days since I added a song to the Grateful Dead channel."),
                FeedItem(title: "Truckin'", summary: "Truckin, one of the Dead's best-known songs.",
                         imageURL: url("http://www.scripting.com/images/truckin.jpg")),
            ]))
    }

    func testRSS10ReadsDublinCoreDatesCreatorsAndEncodedContent() throws {
        // Given RSS 1.0 with dc:date in two zones, dc:creator and content:encoded
        // When it is parsed
        let document = try FeedFixture.parse("rss10-rdf.xml")

        // Then dates are instants, all creators are kept and content:encoded stands in for a description
        XCTAssertEqual(document, FeedDocument(
            title: "XML.com", link: url("http://xml.com/pub"),
            items: [
                FeedItem(title: "Processing Inclusions with XSLT",
                         link: url("http://xml.com/pub/2000/08/09/xslt/xslt.html"),
                         published: date("2000-08-09T17:30:00Z"),
                         summary: "Processing document inclusions with general XML tools can be problematic.",
                         authors: ["Bob DuCharme"]),
                FeedItem(title: "Putting RDF to Work",
                         link: url("http://xml.com/pub/2000/08/09/rdfdb/index.html"),
                         published: date("2000-08-09T18:00:00Z"),
                         summary: "Tool and API support for the Resource Description Framework is slowly coming of age.",
                         authors: ["Edd Dumbill", "Libby Miller"]),
            ]))
    }

    func testRSS20ReadsGuidsZonesMediaEnclosuresAndRelativeLinks() throws {
        // Given RSS 2.0 with media:thumbnail, an image enclosure, a permalink guid instead of a link,
        // named and numeric zones, atom:updated and a link relative to the feed's URL
        // When it is parsed from https://feeds.example.com/path/feed.xml
        let document = try FeedFixture.parse("rss20.xml")

        // Then every item is whole
        XCTAssertEqual(document, FeedDocument(
            title: "Example World News", link: url("https://news.example.com/world/"),
            items: [
                FeedItem(title: "Ceasefire talks resume in Geneva",
                         link: url("https://news.example.com/world/2026/11/30/ceasefire-talks"),
                         id: "urn:example:story:88231",
                         published: date("2026-11-30T06:45:12Z"),
                         summary: "Delegations met for the first time in three months. More to follow.",
                         imageURL: url("https://img.example.com/88231-thumb.jpg"),
                         authors: ["Amara Okafor"]),
                FeedItem(title: "Heatwave grips southern Australia",
                         link: url("https://news.example.com/world/2026/11/30/heatwave"),
                         id: "https://news.example.com/world/2026/11/30/heatwave",
                         published: date("2026-11-30T06:10:00Z"),
                         summary: "Temperatures passed 46°C in Adelaide on Sunday.",
                         imageURL: url("https://img.example.com/heatwave.png"),
                         authors: ["Liam Chen"]),
                FeedItem(title: "Election results: what we know so far",
                         link: url("https://news.example.com/world/2026/11/29/election-live"),
                         id: "https://news.example.com/world/2026/11/29/election-live",
                         published: date("2026-11-30T04:59:59Z"),
                         updated: date("2026-11-30T05:30:00Z")),
                FeedItem(title: "Museum returns looted bronzes",
                         link: url("https://feeds.example.com/world/2026/11/29/bronzes"),
                         published: date("2026-11-30T02:00:00Z"),
                         imageURL: url("https://img.example.com/bronzes.jpg")),
            ]))
    }

    func testTheBenchmarkSampleStillParsesToTenItems() throws {
        // Given the benchmark's RSS 2.0 sample
        // When it is parsed
        let document = try FeedFixture.parse("sample-rss2.xml")

        // Then it has its ten items, the first one whole
        XCTAssertEqual(document.items.count, 10)
        XCTAssertEqual(document.items.first, FeedItem(
            title: "Central bank holds rates steady as inflation cools",
            link: url("https://www.reuters.com/markets/central-bank-holds-rates-2026-11-29/"),
            id: "apitube-9112301", published: date("2026-11-29T22:20:23Z"),
            summary: "Central bank holds rates steady as inflation cools."))
    }
}
