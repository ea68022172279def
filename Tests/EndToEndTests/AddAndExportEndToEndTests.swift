import Foundation
import TestSupport
import XCTest

/// `headlines add URL` finds a site's feed and adds it to the config file, keeping the file's
/// comments; `headlines export --opml` writes the feeds as OPML that `headlines import` reads back.
final class AddAndExportEndToEndTests: EndToEndTestCase {
    let rss = Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>Example Blog</title><link>https://blog.example.com/</link>
        <item><title>First post</title><link>https://blog.example.com/first</link></item></channel></rss>
        """.utf8)
    let atom = Data("""
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom"><title>Atom Site</title><id>urn:x</id><updated>2026-11-29T10:00:00Z</updated>
        <entry><title>One</title><id>urn:1</id><link href="https://atom.example.com/1"/><updated>2026-11-29T10:00:00Z</updated></entry></feed>
        """.utf8)
    func page(_ head: String) -> Data {
        Data("<!DOCTYPE html><html><head><title>Blog</title>\(head)</head><body><p>Hello</p></body></html>".utf8)
    }
    var base: String { server.baseURL.absoluteString }
    var config: String {
        """
        # My headlines config: keep this comment.

        [source]
        # the feeds I read
        provider = feeds
        feeds = https://feeds.example.org/world.rss

        [bar]
        # short lines for my laptop
        max-length = 40

        """
    }
    func configText() -> String { String(decoding: FileManager.default.contents(atPath: cli.defaultConfigFile.path) ?? Data(), as: UTF8.self) }

    func testASitesLinkedFeedIsAddedAndTheFilesCommentsSurvive() throws {
        // Given a site whose page links its feed, and a config file with comments
        server.route("/", .respond(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"],
                                   body: page(#"<link rel="stylesheet" href="/s.css"><LINK REL="alternate" TYPE="application/rss+xml" title="Posts" href="/blog/feed.xml">"#)))
        server.route("/blog/feed.xml", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: rss))
        try cli.writeConfig(config)

        // When the site's address is added
        let run = try cli.run(["add", base + "/"])

        // Then its feed joins the others, and every comment and blank line is where it was
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "Added Example Blog (\(base)/blog/feed.xml) to [source] feeds in \(cli.defaultConfigFile.path).\n")
        XCTAssertEqual(configText(), config.replacingOccurrences(of: "feeds = https://feeds.example.org/world.rss",
                                                                 with: "feeds = https://feeds.example.org/world.rss;\(base)/blog/feed.xml"))
        // And adding it again changes nothing
        let again = try cli.run(["add", base + "/"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("is already in"), again.stdout)
    }

    func testASiteWithoutALinkIsTriedAtTheUsualPaths() throws {
        server.route("/about", .respond(status: 200, headers: ["Content-Type": "text/html"], body: page("")))
        server.route("/atom.xml", .respond(status: 200, headers: ["Content-Type": "application/atom+xml"], body: atom))
        try cli.writeConfig(config)
        let run = try cli.run(["add", base + "/about?x=1"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(configText().contains("world.rss;\(base)/atom.xml\n"), configText())
    }

    func testAFeedURLIsAddedAsItIsAndWithoutAFileTheDefaultsAreKept() throws {
        server.route("/feed", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: rss))
        let run = try cli.run(["add", base + "/feed"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let text = configText()
        XCTAssertTrue(text.hasPrefix("[source]\nfeeds = https://feeds.bbci.co.uk/news/world/rss.xml;"), text)
        XCTAssertTrue(text.contains(";\(base)/feed\n"), text)
    }

    func testNoFeedAnywhereIsOneSentenceAndTheFileIsUnchanged() throws {
        server.route("/", .respond(status: 200, headers: ["Content-Type": "text/html"], body: page("")))
        try cli.writeConfig(config)
        let run = try cli.run(["add", base + "/"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr, "headlines: \(base)/ is not a feed, it links no feed, and none of /feed, /rss, /atom.xml, /feed.xml, /rss.xml, /index.xml is one: give the feed's own URL.\n")
        XCTAssertEqual(configText(), config)
    }

    func testAFeedMovedForGoodIsAddedAtItsNewAddressAndTheSentenceSaysSo() throws {
        // Given a feed whose old address answers 301, and another that answers a temporary 307
        server.route("/old.rss", .redirect(to: "/moved/feed.rss", status: 301))
        server.route("/for-now.rss", .redirect(to: "/moved/feed.rss", status: 307))
        server.route("/moved/feed.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: rss))
        try cli.writeConfig(config)

        // When the old address is added, Then the new one is written, and the sentence says why
        let run = try cli.run(["add", base + "/old.rss"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "Added Example Blog (\(base)/moved/feed.rss) to [source] feeds in \(cli.defaultConfigFile.path): \(base)/old.rss has moved there for good.\n")
        XCTAssertTrue(configText().contains("world.rss;\(base)/moved/feed.rss\n"), configText())

        // And a temporary redirect leaves the address given as it is
        let temporary = try cli.run(["add", base + "/for-now.rss"])
        XCTAssertEqual(temporary.status, 0, temporary.stderr)
        XCTAssertEqual(temporary.stdout, "Added Example Blog (\(base)/for-now.rss) to [source] feeds in \(cli.defaultConfigFile.path).\n")
        XCTAssertTrue(configText().contains("world.rss;\(base)/moved/feed.rss;\(base)/for-now.rss\n"), configText())
    }

    func testAWidgetsFeedGoesToItsOwnGroup() throws {
        server.route("/feed", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: rss))
        let text = config + "[widget tech]\n# tech news\nfeeds = https://tech.example.org/a.rss\n"
        try cli.writeConfig(text)
        let run = try cli.run(["add", "--widget", "tech", base + "/feed"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(configText(), text.replacingOccurrences(of: "feeds = https://tech.example.org/a.rss",
                                                               with: "feeds = https://tech.example.org/a.rss;\(base)/feed"))
    }

    func testALinkedConfigIsNotReplaced() throws {
        server.route("/feed", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: rss))
        let target = try cli.writeConfig(config, at: cli.root.appendingPathComponent("real.conf"))
        try FileManager.default.createDirectory(at: cli.defaultConfigFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: cli.defaultConfigFile, withDestinationURL: target)
        let run = try cli.run(["add", base + "/feed"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("is a symbolic link; edit the file it points to by hand"), run.stderr)
        XCTAssertEqual(String(decoding: try Data(contentsOf: target), as: UTF8.self), config)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: cli.defaultConfigFile.path), target.path)
    }

    func testExportedOPMLImportsBackToTheSameFeeds() throws {
        // Given feeds with a comma and an ampersand in their queries
        let feeds = "https://feeds.example.org/world.rss;https://example.com/rss?tags=a%2Cb&lang=en;https://news.example.net/atom.xml"
        try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(feeds)\n")

        // When they are exported as OPML and imported back
        let export = try cli.run(["export", "--opml"])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertTrue(export.stdout.contains(#"xmlUrl="https://example.com/rss?tags=a%2Cb&amp;lang=en""#), export.stdout)
        let opml = cli.root.appendingPathComponent("feeds.opml")
        try Data(export.stdout.utf8).write(to: opml)
        let imported = try cli.run(["import", opml.path])

        // Then the import's feeds line is the same feeds, in the same order
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stdoutLines.contains("feeds = " + feeds), imported.stdout)
    }
}
