import Foundation
import XCTest
import HeadlinesCore
import HeadlinesSources
import TestSupport

/// Documents that feedparser reads items from although their root or their markup is not the
/// usual feed's: each is still a feed.
final class DocumentShapeTests: XCTestCase {
    func testAnAtomEntryDocumentIsAFeedOfItsOneEntry() throws {
        // Given a standalone Atom entry (root <entry>, RFC 4287 §4.1.2) as Blogger serves a post,
        // with single-quoted attributes, self/edit/replies links and an html content
        // When it is parsed
        let document = try FeedFixture.parse("atom-entry-document.xml")

        // Then it is one item with the alternate link, both dates and the entry's author
        XCTAssertEqual(document, FeedDocument(items: [
            FeedItem(title: "Version 3.2 is out", link: url("https://devnotes.example.org/2026/11/version-32-is-out.html"),
                     id: "tag:blogger.com,1999:blog-4711.post-815",
                     published: date("2026-11-28T17:14:00.001Z"), updated: date("2026-11-28T19:02:37.512Z"),
                     summary: "Faster sync, fewer surprises.", authors: ["Priya Raman"]),
        ]))
    }

    func testAnEntryDocumentCutOffIsAMalformedFeed() {
        // Given an entry document that ends inside its content
        let entry = "<entry xmlns='http://www.w3.org/2005/Atom'><title>T</title>"
            + "<link href='https://example.org/1'/>\n<content>Cut he"

        // When it is parsed
        let error = thrownError { () throws(FeedError) in try FeedParser.parse(Data(entry.utf8), baseURL: nil) }

        // Then it is a failed download, as a feed cut before its first whole entry is
        XCTAssertEqual(error, FeedError(reason: "malformed XML at line 2: the document ends early (truncated?)"))
    }

    func testRSS10UnderAnUnprefixedRDFRootIsRSS() throws {
        // Given RSS 1.0 whose root is <rdf> in no namespace (the rdf: prefix dropped), with
        // rdf:about, rdf:Seq and Dublin Core dates
        // When it is parsed
        let document = try FeedFixture.parse("rss10-unprefixed-rdf.xml")

        // Then the channel and both items are read
        XCTAssertEqual(document, FeedDocument(
            title: "工房日記", link: url("https://diary.example.jp/"),
            items: [
                FeedItem(title: "鉋の刃を研ぐ", link: url("https://diary.example.jp/entry/2026/11/29/224000"),
                         published: date("2026-11-29T13:40:00Z"), summary: "6000番の砥石で三十分。", authors: ["kenta"]),
                FeedItem(title: "作業台の天板", link: url("https://diary.example.jp/entry/2026/11/27/081500"),
                         published: date("2026-11-26T23:15:00Z"), summary: "檜を手鉋で仕上げた。", authors: ["kenta"]),
            ]))
    }

    func testAnRDFRootInAnyOfItsNamespacesAndEitherCaseIsRSS() throws {
        // Given <RDF> and <rdf> roots in the RDF namespace as the default one (so the channel and
        // items are in it too), in RSS 1.0's namespace, and in none
        let body = "<channel><title>T</title><link>https://example.org/</link></channel>"
            + "<item><title>One</title><link>https://example.org/1</link></item>"
        let roots = [
            "<RDF xmlns=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\(body)</RDF>",
            "<rdf xmlns=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\(body)</rdf>",
            "<rdf xmlns=\"http://purl.org/rss/1.0/\">\(body)</rdf>",
            "<RDF>\(body)</RDF>",
        ]

        for root in roots {
            // When each is parsed
            let document = try FeedParser.parse(Data(root.utf8), baseURL: nil)

            // Then each is the same feed
            XCTAssertEqual(document, FeedDocument(title: "T", link: url("https://example.org/"),
                                                  items: [FeedItem(title: "One", link: url("https://example.org/1"))]), root)
        }
    }

    func testAPodcastCutOffAfterABrokenSingleQuotedAttributeKeepsTheItemsBeforeTheCut() throws {
        // Given an iTunes podcast feed with single-quoted attributes, one of which holds an
        // apostrophe ("sam's-workshop"), cut off inside its third item before that item's link
        // When it is parsed
        let document = try FeedFixture.parse("itunes-single-quoted-truncated.xml")

        // Then the two whole episodes are read, and the one without its link is dropped
        XCTAssertEqual(document, FeedDocument(
            title: "The Workshop Hour", link: url("https://workshophour.example.com/"),
            items: [
                FeedItem(title: "Episode 112: Hand tools for beginners", link: url("https://workshophour.example.com/episodes/112"),
                         id: "workshophour-112", published: date("2026-12-01T15:00:00Z"),
                         summary: "Which three planes to buy first, and which to skip."),
                FeedItem(title: "Episode 111: Finishing with oil", link: url("https://workshophour.example.com/episodes/111"),
                         id: "workshophour-111", published: date("2026-11-24T15:00:00Z"),
                         summary: "Linseed, tung and the difference a week makes."),
            ]))
    }

    func testAnUnclosedElementEndsWithItsParent() throws {
        // Given items with an HTML-style <itunes:image ...> and <br> never closed
        let rss = """
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>T</title>
        <item><title>One</title><link>https://example.org/1</link><itunes:image href='https://example.org/1.jpg'></item>
        <item><title>Two</title><description>line<br>line</description><link>https://example.org/2</link></item>
        <item><title>Three</title><link>https://example.org/3</link></item></channel></rss>
        """

        // When it is parsed
        let document = try FeedParser.parse(Data(rss.utf8), baseURL: nil)

        // Then each item ends at its own end tag: all three are read, none inside another
        XCTAssertEqual(document.items.map(\.title), ["One", "Two", "Three"])
        XCTAssertEqual(document.items.map(\.link), [url("https://example.org/1"), url("https://example.org/2"), url("https://example.org/3")])
        XCTAssertEqual(document.items.first?.imageURL, url("https://example.org/1.jpg"))
    }

    func testAnEndTagThatClosesNothingOpenIsIgnored() throws {
        // Given a stray </b> inside a title, text and markup after it, then the item's link
        let rss = "<rss version=\"2.0\"><channel><title>T</title>"
            + "<item><title>Bold</b> claim, <em>again</em></title><link>https://example.org/1</link></item>"
            + "<item><title>Next</title><link>https://example.org/2</link></item></channel></rss>"

        // When it is parsed
        let document = try FeedParser.parse(Data(rss.utf8), baseURL: nil)

        // Then the title keeps its text and the link stays in its item
        XCTAssertEqual(document.items, [FeedItem(title: "Bold claim, again", link: url("https://example.org/1")),
                                        FeedItem(title: "Next", link: url("https://example.org/2"))])
    }

    func testTheOwnEndTagOfAnElementAStrayTagClosedClosesNothing() throws {
        // Given a stray </b> with markup right after it inside a title (so the title ends there, as
        // libxml2 ends it), and later the title's own end tag, before the item's link
        let rss = "<rss version=\"2.0\"><channel><title>T</title>"
            + "<item><title>Tom</b><br/>and Jerry</title><link>https://example.org/1</link></item>"
            + "<item><title>Next</title><link>https://example.org/2</link></item></channel></rss>"

        // When it is parsed
        let document = try FeedParser.parse(Data(rss.utf8), baseURL: nil)

        // Then the title is what came before the stray tag, and the link is still the item's
        XCTAssertEqual(document.items, [FeedItem(title: "Tom", link: url("https://example.org/1")),
                                        FeedItem(title: "Next", link: url("https://example.org/2"))])
    }
}
