import Foundation
import XCTest
import HeadlinesCore
import HeadlinesSources
import TestSupport

/// What real sites publish that a strict XML parser rejects or misreads: each is still a feed.
final class SloppyFeedTests: XCTestCase {
    func testWhitespaceAndACommentBeforeTheDeclaration() throws {
        // Given a WordPress feed with blank lines and a comment before <?xml
        // When it is parsed
        let document = try FeedFixture.parse("sloppy-prolog.xml")

        // Then it reads as if they were not there
        XCTAssertEqual(document, FeedDocument(title: "Blog", link: url("https://example.org/"),
                                              items: [FeedItem(title: "Hello world", link: url("https://example.org/1"))]))
    }

    func testControlCharactersAndStrayBytesDoNotLoseTheFeed() throws {
        // Given C0 control characters in the titles of a UTF-8 feed, and a stray 0xFF byte
        // When it is parsed
        let document = try FeedFixture.parse("control-chars.xml")

        // Then the controls are gone, tab is whitespace and the stray byte is read as Windows-1252
        XCTAssertEqual(document.title, "Control feed")
        XCTAssertEqual(document.items.map(\.title), ["Tab andvertical bell ÿ stray"])
    }

    func testEntitiesAndUndeclaredPrefixesSurviveAnEarlierError() throws {
        // Given an item with bare "<" in its title and a misspelt end tag (an error libxml2
        // recovers from, after which it drops named entity references), then one with undeclared
        // HTML entities, predefined ones and media: and dc: used without their xmlns
        // When it is parsed
        let document = try FeedFixture.parse("undeclared-prefixes.xml")

        // Then both items are read, every entity decoded (&nbsp; folds into a space like all
        // whitespace) and the prefixes get their namespaces
        XCTAssertEqual(document.items.first, FeedItem(
            title: "1 < 2 and 3 <= 4", link: url("https://example.org/a"),
            summary: "A misspelt end tag, an error libxml2 recovers from"))
        XCTAssertEqual(document.items.last, FeedItem(
            title: "Café au… Tom & Jerry <3 ’", link: url("https://example.org/b"),
            imageURL: url("https://example.org/b.jpg"), authors: ["Ann"]))
    }

    func testRSSInUserlandsNamespaceIsRSS() throws {
        // Given RSS 2.0 with xmlns="http://backend.userland.com/rss2" on <rss>
        // When it is parsed
        let document = try FeedFixture.parse("userland-rss2.xml")

        // Then its items are read (they used to be 0, with no error), single-digit seconds included
        XCTAssertEqual(document, FeedDocument(title: "Scripting News", link: url("http://scripting.example.com/"), items: [
            FeedItem(title: "First", link: url("http://scripting.example.com/2026/12/01/first"),
                     id: "http://scripting.example.com/2026/12/01/first", published: date("2026-12-01T11:35:09Z")),
            FeedItem(title: "Second", link: url("http://scripting.example.com/2026/12/01/second"),
                     id: "http://scripting.example.com/2026/12/01/second", summary: "No link, only a permalink guid"),
        ]))
    }

    func testRSSInAnyDefaultNamespaceIsRSS() throws {
        // Given RSS 2.0 whose <rss> carries some other default namespace
        let xml = "<rss version=\"2.0\" xmlns=\"urn:example:whatever\"><channel><title>T</title>"
            + "<item><title>A</title><link>https://example.org/a</link></item></channel></rss>"

        // When it is parsed
        let document = try FeedParser.parse(Data(xml.utf8), baseURL: nil)

        // Then its channel and items are read as RSS
        XCTAssertEqual(document, FeedDocument(title: "T", items: [FeedItem(title: "A", link: url("https://example.org/a"))]))
    }

    func testAnAtomEntryWhoseOnlyLinkIsItsIdOpensTheId() throws {
        // Given Atom entries with only an http(s) id, only a tag: id, and both a link and an id
        // When it is parsed
        let document = try FeedFixture.parse("atom-id-as-link.xml")

        // Then the http(s) id is the link, a tag: id is none, and a real link wins over the id
        XCTAssertEqual(document.items.map(\.link), [
            url("https://blog.example.org/2026/12/only-an-id.html"), nil, url("https://blog.example.org/post-3"),
        ])
        XCTAssertEqual(document.items.first?.updated, date("2026-12-01T09:05:03Z"))
    }

    func testAChannelWithoutItemsIsAnEmptyFeedNotAnError() throws {
        // Given a valid channel with no items
        // When it is parsed
        let document = try FeedFixture.parse("empty-channel.xml")

        // Then it is a feed with no items
        XCTAssertEqual(document, FeedDocument(title: "Quiet", link: url("https://quiet.example.org/")))
    }

    func testAFeedInsideAnXHTMLPageIsReadAsTheFeed() throws {
        // Given an XHTML page whose body holds an Atom feed (captured in the wild by feedjira)
        let page = """
        <?xml version="1.0" encoding="utf-8"?>
        <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
        <html xmlns="http://www.w3.org/1999/xhtml"><body><feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title>
        <entry><title>Down time</title><link rel="alternate" href="https://blog.example.org/down"/><id>urn:1</id>
        <updated>2014-07-21T21:14:39+02:00</updated></entry></feed></body></html>
        """

        // When it is parsed
        let document = try FeedParser.parse(Data(page.utf8), baseURL: nil)

        // Then the feed inside is what is read
        XCTAssertEqual(document.items.map(\.title), ["Down time"])
        XCTAssertEqual(document.items.first?.link, url("https://blog.example.org/down"))
    }

    func testALowercasePubdateAndInvisibleCharactersInATitle() throws {
        // Given RSS as rutube.ru writes it (<pubdate>, a space for the T) with a zero-width space
        // and a stray BOM in the title
        let rss = """
        <rss version="2.0"><channel><title>Video</title><item><title>\u{200B}Comedy \u{FEFF}Club</title>
        <link>https://video.example.org/1</link><pubdate>2022-09-03 09:37:11+03:00</pubdate></item></channel></rss>
        """

        // When it is parsed and turned into a headline title
        let item = try XCTUnwrap(FeedParser.parse(Data(rss.utf8), baseURL: nil).items.first)

        // Then the date is read and the title has no invisible characters
        XCTAssertEqual(item.published, Date(timeIntervalSince1970: 1_662_187_031))
        XCTAssertEqual(item.title.map(TextCleaning.plainTitle), "Comedy Club")
    }

    func testDoublyEncodedUTF8TitlesAreReadBackAndRealLatin1IsLeftAlone() throws {
        // Given a UTF-8 feed whose producer encoded "é" twice (bytes C3 83 C2 A9), beside a real
        // "Café" and a title with characters beyond Latin-1
        let rss = """
        <?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Le Monde</title>
        <item><title>Piratage imputÃ© Ã\u{00A0} la Russie</title><link>https://lemonde.example/1</link></item>
        <item><title>Café crème</title><link>https://lemonde.example/2</link></item>
        <item><title>Ã© — 5 €</title><link>https://lemonde.example/3</link></item></channel></rss>
        """

        // When it is parsed
        let titles = try FeedParser.parse(Data(rss.utf8), baseURL: nil).items.map(\.title)

        // Then the doubly encoded title is repaired and the others are as written
        XCTAssertEqual(titles, ["Piratage imputé à la Russie", "Café crème", "Ã© — 5 €"])
    }

    func testADownloadCutInsideAnItemKeepsItWhenItsTitleAndLinkArrivedWhole() throws {
        // Given RSS cut off inside the second item's body, after its title and link
        let rss = """
        <rss version="2.0"><channel><title>OSM</title>
        <item><title>One</title><link>https://osm.example/1</link></item>
        <item><title>Two</title><link>https://osm.example/2</link><description>Cut he
        """

        // When it is parsed
        let items = try FeedParser.parse(Data(rss.utf8), baseURL: nil).items

        // Then both items are there
        XCTAssertEqual(items.map(\.title), ["One", "Two"])
    }

    func testAnIllFormedHTMLPageIsNotAFeed() {
        // Given HTML that is not well-formed XML (unclosed tags, a bare &)
        let html = "<!DOCTYPE html>\n<html><head><title>Home & more</title></head><body><p>Hi<br></body>"

        // When it is parsed
        let error = thrownError { () throws(FeedError) in try FeedParser.parse(Data(html.utf8), baseURL: nil) }

        // Then it is named for what it is
        XCTAssertEqual(error, FeedError(reason: "not a feed: the document's root is <html>"))
    }
}
