import Foundation
import XCTest
import HeadlinesCore
import HeadlinesSources
import TestSupport

/// The Atom and JSON Feed fixtures decoded into their whole expected documents.
final class AtomAndJSONFixtureTests: XCTestCase {
    func testAtom03ReadsIssuedAndModifiedAndEscapedContent() throws {
        // Given Atom 0.3 with issued/modified dates, an escaped HTML title and feed-level author
        // When it is parsed
        let document = try FeedFixture.parse("atom03.xml")

        // Then issued is published, modified is updated, and an entry without author inherits the feed's
        XCTAssertEqual(document, FeedDocument(
            title: "dive into mark", link: url("http://diveintomark.org/"),
            items: [
                FeedItem(title: "Atom 0.3 snapshot", link: url("http://diveintomark.org/2003/12/13/atom03"),
                         id: "tag:diveintomark.org,2003:3.2397",
                         published: date("2003-12-13T12:29:29Z"), updated: date("2003-12-13T18:30:02Z"),
                         summary: "The Atom 0.3 snapshot is out.", authors: ["Mark Pilgrim"]),
                FeedItem(title: "Dive into history", link: url("http://diveintomark.org/2003/12/12/history"),
                         id: "tag:diveintomark.org,2003:3.2396", updated: date("2003-12-12T10:00:00Z"),
                         summary: "A look back at syndication.", authors: ["Sam Ruby"]),
            ]))
    }

    func testAtom10ResolvesLinksAgainstXMLBaseAndPicksTheAlternateLink() throws {
        // Given Atom 1.0 with xml:base on the feed and on an entry, self/enclosure/alternate links,
        // an html title with entities, an xhtml summary and a fractional date in +02:00
        // When it is parsed
        let document = try FeedFixture.parse("atom10.xml")

        // Then links resolve against the nearest xml:base, and self links are never the item's link
        XCTAssertEqual(document, FeedDocument(
            title: "Example Engineering Blog", link: url("https://blog.example.org/"),
            items: [
                FeedItem(title: "Shipping async & friends", link: url("https://blog.example.org/posts/42"),
                         id: "tag:blog.example.org,2026:42",
                         published: date("2026-11-27T07:15:00.250Z"), updated: date("2026-11-28T10:00:00Z"),
                         summary: "How we moved the whole pipeline.",
                         imageURL: url("https://blog.example.org/images/42.png"),
                         authors: ["Rosa Díaz", "Kenji Sato"]),
                FeedItem(title: "Notes on a quiet week",
                         link: url("https://elsewhere.example.net/archive/2026/11/quiet"),
                         id: "tag:blog.example.org,2026:41", updated: date("2026-11-21T17:00:00Z"),
                         summary: "Nothing broke.",
                         imageURL: url("https://elsewhere.example.net/archive/thumbs/41.jpg"),
                         authors: ["Example Engineering"]),
            ]))
    }

    func testJSONFeed10ReadsHTMLContentAndTheSingleAuthor() throws {
        // Given JSON Feed 1.0 with content_html, a relative url and the 1.0 `author` object
        // When it is parsed
        let document = try FeedFixture.parse("jsonfeed10.json")

        // Then markup is reduced to text and the relative url resolves against the feed's URL
        XCTAssertEqual(document, FeedDocument(
            title: "Example & Daily", link: url("https://daily.example.com/"),
            items: [
                FeedItem(title: "Markets open higher", link: url("https://daily.example.com/2026/11/30/markets"),
                         id: "2347259", published: date("2026-11-30T14:30:00Z"),
                         summary: "Stocks rose in early trading.",
                         imageURL: url("https://daily.example.com/img/markets.jpg"), authors: ["The Daily Desk"]),
                FeedItem(title: "Five winter soups", link: url("https://feeds.example.com/2026/11/29/recipes"),
                         id: "2347250", published: date("2026-11-29T18:00:00Z"), updated: date("2026-11-29T19:00:00Z"),
                         summary: "Warming, cheap and quick.", authors: ["Chef Ana"]),
            ]))
    }

    func testJSONFeed11IsLenientAboutIdsDatesAndBrokenItems() throws {
        // Given JSON Feed 1.1 with a numeric id, only an external_url, a bad date and a non-object item
        // When it is parsed
        let document = try FeedFixture.parse("jsonfeed11.json")

        // Then the id is text, external_url is the link, the bad date is nil and the broken item is skipped
        XCTAssertEqual(document, FeedDocument(
            title: "Example Links", link: url("https://links.example.com"),
            items: [
                FeedItem(title: "An interesting story elsewhere", link: url("https://elsewhere.example.org/story"),
                         id: "1011", published: date("2026-11-30T10:00:00.500Z"),
                         summary: "Worth reading in full.", imageURL: url("https://links.example.com/banner.png"),
                         authors: ["Pat", "Sam"]),
                FeedItem(id: "note-7", summary: "A note without a title or a link.", authors: ["Link Bot"]),
            ]))
    }
}
