import Foundation
import XCTest
import HeadlinesCore
@testable import HeadlinesSources
import TestSupport

/// OPML exports and newsboat `urls` files from `Fixtures/subscriptions/`, read into feeds and tags.
final class SubscriptionFileTests: XCTestCase {
    private let root = FixturePaths.url("subscriptions")

    private func read(_ name: String) throws -> SubscriptionFile {
        try SubscriptionFile.read(path: root.appendingPathComponent(name).path, setting: "[source] feeds-from")
    }

    private func sub(_ url: String, _ title: String?, _ tags: [String] = []) -> Subscription {
        Subscription(url: URL(string: url)!, title: title, tags: tags)
    }

    func testFeedlyFoldersBecomeTagsAndAFeedInTwoFoldersIsOneFeedWithBoth() throws {
        // Given Feedly's export: Tech, World News, and Ars Technica again under Must Read
        let file = try read("feedly.opml")
        // Then every feed with an xmlUrl, once, with its folders as tags and entities decoded
        XCTAssertEqual(file.format, .opml)
        XCTAssertEqual(file.subscriptions, [
            sub("https://feeds.arstechnica.com/arstechnica/index", "Ars Technica - All content", ["Tech", "Must Read"]),
            sub("https://www.tomshardware.com/feeds/all", "Tom's Hardware", ["Tech"]),
            sub("https://feeds.bbci.co.uk/news/world/rss.xml", "BBC News - World", ["World News"]),
            sub("https://www.lemonde.fr/rss/une.xml", "Le Monde.fr - Actualités et Infos en France et dans le monde", ["World News"]),
        ])
        // And the feed outline that has only an htmlUrl is one warning naming it
        XCTAssertEqual(file.warnings.count, 1, "\(file.warnings)")
        XCTAssertTrue(file.warnings[0].contains("'AT&T Tech Channel' has no xmlUrl"), file.warnings[0])
    }

    func testNetNewsWireNestedFoldersGiveEveryEnclosingTitleAndBadURLsAreWarned() throws {
        let file = try read("netnewswire.opml")
        XCTAssertEqual(file.subscriptions, [
            sub("https://daringfireball.net/feeds/main", "Daring Fireball"),
            sub("https://lwn.net/headlines/rss", "LWN.net", ["Linux"]),
            sub("https://planet.kernel.org/rss20.xml", "Kernel Planet", ["Linux", "Kernel"]),
            sub("https://www.swift.org/atom.xml", "Swift.org", ["Swift"]),
        ])
        // The empty Debian folder says nothing; the javascript: and relative URLs one sentence each
        XCTAssertEqual(file.warnings.count, 2, "\(file.warnings)")
        XCTAssertTrue(file.warnings[0].contains("'javascript:void(subscribe())', which is not an http or https feed URL; skipped."), file.warnings[0])
        XCTAssertTrue(file.warnings[1].contains("'/feeds/posts/default'"), file.warnings[1])
        XCTAssertTrue(file.warnings.allSatisfy { $0.hasPrefix(root.appendingPathComponent("netnewswire.opml").path) })
    }

    func testOPML2CategoriesSloppyMarkupAndLatin1() throws {
        // Given a hand-edited ISO-8859-1 OPML 2.0 file: category attributes, HTML entities, a bare
        // `&` in a URL and an outline never closed
        let file = try read("opml2-categories.opml")
        XCTAssertEqual(file.subscriptions, [
            sub("https://www.theregister.com/headlines.atom", "The Register", ["Tech/Hardware", "News"]),
            sub("https://example.org/cafebabel/rss?lang=fr&section=europe,politics", "Café Babel — Europe", ["Europe"]),
            sub("https://www.nzz.ch/zuerich.rss", "NZZ Zürich", ["Europe/Schweiz"]),
            sub("https://feeds.npr.org/1001/rss.xml", "NPR Topics: News", ["News"]),
            sub("https://news.ycombinator.com/rss", "Hacker News"),
        ])
        XCTAssertEqual(file.warnings, [])
    }

    func testOPMLIsToldByItsRootNotItsName() throws {
        let file = try read("inoreader-tagged.xml")
        XCTAssertEqual(file.format, .opml)
        XCTAssertEqual(file.subscriptions.map(\.tags), [["Science"], ["Science"]])
        XCTAssertThrowsError(try read("not-opml.xml")) { error in
            XCTAssertTrue("\(error)".contains("is neither OPML nor a newsboat urls file (its root is <rss>)"), "\(error)")
        }
    }

    func testNewsboatURLsTagsTitlesAndSkippedLines() throws {
        let file = try read("urls")
        XCTAssertEqual(file.format, .newsboat)
        XCTAssertEqual(file.subscriptions, [
            // The repeated lwn.net line adds its tags to the first
            sub("https://lwn.net/headlines/rss", nil, ["linux", "must read", "security"]),
            sub("https://planet.kernel.org/rss20.xml", nil, ["linux", "kernel"]),
            sub("https://feeds.bbci.co.uk/news/world/rss.xml", "BBC World", ["news"]),
            sub("https://www.theguardian.com/world/rss", "The Guardian: World \"live\"", ["news"]),
            sub("https://news.ycombinator.com/rss", nil, ["tech"]),
            sub("https://www.swift.org/atom.xml", nil, ["tech", "swift"]),
        ])
        let name = root.appendingPathComponent("urls").path
        XCTAssertEqual(file.warnings, [
            "\(name) line 11: a query: feed is a newsboat search of its own articles, which headlines cannot read; skipped.",
            "\(name) line 12: a query: feed is a newsboat search of its own articles, which headlines cannot read; skipped.",
            "\(name) line 13: an exec: feed runs a program, which headlines never does; skipped.",
            "\(name) line 14: a filter: feed runs a program, which headlines never does; skipped.",
            "\(name) line 15: 'file:///home/jane/feeds/local.xml' is not an http or https URL; skipped.",
            "\(name) line 16: 'gopher://gopher.floodgap.com/1/feeds' is not an http or https URL; skipped.",
        ])
    }

    func testNewsboatWordsKeepQuotedSpacesAndEscapes() {
        XCTAssertEqual(NewsboatURLsReader.words(#"https://a.example/x "two words"\#ttab "~A \"q\" \\ b" "!""#),
                       ["https://a.example/x", "two words", "tab", #"~A "q" \ b"#, "!"])
        XCTAssertEqual(NewsboatURLsReader.words(#""query:Unread:unread = \"yes\"""#), [#"query:Unread:unread = "yes""#])
    }

    func testTagsSelectCaseInsensitivelyAndAMissingTagNamesTheTagsThereAre() throws {
        let file = try read("urls")
        let chosen = try file.selecting(tags: ["LINUX", "Swift"], name: "urls", setting: "[source] feeds-from")
        XCTAssertEqual(chosen.map(\.url.host), ["lwn.net", "planet.kernel.org", "www.swift.org"])
        XCTAssertEqual(try file.selecting(tags: [], name: "urls", setting: "s").count, 6)
        XCTAssertThrowsError(try file.selecting(tags: ["sport"], name: "urls", setting: "s")) { error in
            XCTAssertEqual("\(error)", "urls has no feeds tagged #sport; its tags are linux, must read, security, kernel, news, tech, swift.")
        }
    }

    func testAFileWithNoFeedsOrNoTagsSaysSo() throws {
        let empty = try SubscriptionFile.parse(Data("# only comments\n\nquery:x:unread = \"yes\"\n".utf8), name: "urls")
        XCTAssertThrowsError(try empty.selecting(tags: [], name: "urls", setting: "[source] feeds-from")) { error in
            XCTAssertEqual("\(error)", "urls has no feeds (no line with an http or https URL); check [source] feeds-from.")
        }
        let untagged = try SubscriptionFile.parse(Data("https://a.example/feed\n".utf8), name: "urls")
        XCTAssertThrowsError(try untagged.selecting(tags: ["tech"], name: "urls", setting: "s")) { error in
            XCTAssertEqual("\(error)", "urls has no feeds tagged #tech; it has no tags at all, so drop the #tag.")
        }
    }
}
