import Foundation
import TestSupport
import XCTest

/// `[source] feeds-from` through the real `headlines` against loopback feeds: the file is read at
/// every fetch (an edit counts at the next one, in the host's reload child too), its errors are one
/// sentence that `status` repeats, and `headlines import` prints a config that reads the same feeds.
final class SubscriptionsEndToEndTests: EndToEndTestCase {
    private var urlsFile: URL { cli.root.appendingPathComponent("home/.newsboat/urls") }
    private var world: URL { server.baseURL.appendingPathComponent("world.rss") }
    private var blog: URL { server.baseURL.appendingPathComponent("blog.atom") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        server.route("/world.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"],
                                            body: FixturePaths.data("feeds/sample-rss2.xml")))
        server.route("/blog.atom", .respond(status: 200, headers: ["Content-Type": "application/atom+xml"],
                                            body: FixturePaths.data("feeds/atom10.xml")))
        try FileManager.default.createDirectory(at: urlsFile.deletingLastPathComponent(), withIntermediateDirectories: true)
    }

    private func writeURLs(_ text: String) throws { try Data(text.utf8).write(to: urlsFile) }

    private func requestedPaths() -> [String] { server.requests.map(\.path) }

    func testEditingTheURLsFileChangesTheNextFetchAndTheHostsReloadChild() throws {
        // Given a newsboat urls file with the world feed tagged "news" and the blog tagged "tech",
        // and a config that takes only #news from it
        try writeURLs("# mine\n\(world.absoluteString) news \"~World\"\n\(blog.absoluteString) tech\n\"exec:~/bin/x\" news\n")
        try cli.writeConfig("[source]\nprovider = feeds\nfeeds-from = ~/.newsboat/urls#news\n")

        // When fetched
        let first = try cli.run(["fetch"])

        // Then only the world feed was requested and listed, and the exec: line was one warning
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(requestedPaths(), ["/world.rss"])
        XCTAssertEqual(Set(try listJSON().map(\.source)), ["Sample World News"])
        XCTAssertEqual(first.stderrLines, ["headlines: warning: \(urlsFile.path) line 4: an exec: feed runs a program, which headlines never does; skipped."])

        // When the file is edited so that #news is the blog, and fetched again
        try writeURLs("\(world.absoluteString) sport\n\(blog.absoluteString) tech news\n")
        let second = try cli.run(["fetch"])

        // Then the new list is read: the blog, not the world feed
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(requestedPaths(), ["/world.rss", "/blog.atom"])
        XCTAssertEqual(Set(try listJSON().map(\.source)), ["Example Engineering Blog"])

        // And the host's reload child reads the file afresh too, and warns nothing into the host's log
        try writeURLs("\(world.absoluteString) news\n")
        let child = try cli.reload()
        XCTAssertEqual(child.status, 0, child.stderr)
        XCTAssertEqual(requestedPaths().last, "/world.rss")
        XCTAssertTrue(child.stdout.contains("Sample World News"), child.stdout)
        XCTAssertFalse(child.stdout.contains("Example Engineering Blog"), child.stdout)
        XCTAssertEqual(child.stderr, "")

        // And status lists the file's feeds as the next reload reads them
        let status = try cli.run(["status"])
        XCTAssertTrue(status.stdoutLines.contains { $0.contains(world.absoluteString) && $0.contains("ok") }, status.stdout)
        XCTAssertFalse(status.stdout.contains(blog.absoluteString), status.stdout)
    }

    func testAnOPMLFileWithFeedsBesideItIsBothInOrder() throws {
        // Given `feeds` naming the blog and an OPML file listing the world feed and the blog again
        let opml = cli.root.appendingPathComponent("subs.xml")
        try Data("""
            <?xml version="1.0"?><opml version="2.0"><body><outline text="World &amp; more">
            <outline text="W" xmlUrl="\(world.absoluteString)"/><outline text="B" xmlUrl="\(blog.absoluteString)"/>
            </outline></body></opml>
            """.utf8).write(to: opml)
        try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(blog.absoluteString)\nfeeds-from = \(opml.path)#world & more\n")
        // When fetched
        let fetch = try cli.run(["fetch"])
        // Then each feed was requested once and both are listed
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        XCTAssertEqual(requestedPaths().sorted(), ["/blog.atom", "/world.rss"])
        XCTAssertEqual(Set(try listJSON().map(\.source)), ["Sample World News", "Example Engineering Blog"])
    }

    func testAMissingFileIsOneSentenceThatStatusAndTheHostChildRepeat() throws {
        try cli.writeConfig("[source]\nprovider = feeds\nfeeds-from = ~/.newsboat/urls#news\n")
        let expected = "\(urlsFile.path) does not exist; check [source] feeds-from in \(cli.defaultConfigFile.path)."

        let fetch = try cli.run(["fetch"])
        XCTAssertEqual(fetch.status, 2)
        XCTAssertEqual(fetch.stderrLines, ["headlines: \(expected)"])
        XCTAssertEqual(requestedPaths(), [])

        let status = try cli.run(["status"])
        XCTAssertTrue(status.stdout.contains(expected), status.stdout)

        let child = try cli.reload()
        XCTAssertEqual(child.status, 0, child.stderr)
        XCTAssertTrue(child.stdout.contains(expected.replacing("/", with: "\\/")) || child.stdout.contains(expected), child.stdout)

        // A file with no feed tagged #news names the tags it has
        try writeURLs("\(world.absoluteString) sport \"Local politics\"\n")
        let untagged = try cli.run(["fetch"])
        XCTAssertEqual(untagged.stderrLines, ["headlines: \(urlsFile.path) has no feeds tagged #news; its tags are sport, Local politics."])
    }

    func testImportSuggestsAnAbsoluteFeedsFromPath() throws {
        // Given a urls file named relative to the working folder
        try writeURLs("\(world.absoluteString) news\n")
        let relative = String(urlsFile.path.dropFirst(cli.root.path.count + 1))
        // When it is imported by that relative name
        let result = try cli.run(["import", relative + "#news"])
        // Then the suggested feeds-from line works from any folder (a host started by systemd has another)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdoutLines.contains("#   feeds-from = \(urlsFile.path)#news"), result.stdout)
    }

    func testImportPrintsAConfigThatFetchesTheSameFeeds() throws {
        // Given a urls file with two feeds, one tagged tech
        try writeURLs("\(world.absoluteString) news \"~World, today\"\n\(blog.absoluteString) tech\nquery:x:unread = \"yes\"\n")

        // When imported with #tech, and without a tag
        let tech = try cli.run(["import", "~/.newsboat/urls#tech"])
        let all = try cli.run(["import", urlsFile.path])

        // Then the tagged one prints the blog only, with a comment naming it and its tags
        XCTAssertEqual(tech.status, 0, tech.stderr)
        XCTAssertTrue(tech.stdoutLines.contains("#   \(blog.host ?? "") [tech]: \(blog.absoluteString)"), tech.stdout)
        XCTAssertTrue(tech.stdout.hasSuffix("[source]\nprovider = feeds\nfeeds = \(blog.absoluteString)\n"), tech.stdout)
        XCTAssertEqual(tech.stderrLines.count, 1, tech.stderr)
        XCTAssertTrue(all.stdoutLines.contains("#   World, today [news]: \(world.absoluteString)"), all.stdout)

        // And the printed config, used as it is, fetches both feeds
        let config = try cli.writeConfig(all.stdout, at: cli.root.appendingPathComponent("imported.conf"))
        let fetch = try cli.run(["--config", config.path, "fetch"])
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        XCTAssertEqual(requestedPaths().sorted(), ["/blog.atom", "/world.rss"])
    }

    func testImportOfABadFileExitsTwoWithOneSentence() throws {
        let fifo = cli.root.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for (argument, words) in [(fifo, "is a FIFO, not a regular file"), ("/nonexistent/urls", "does not exist"),
                                  (FixturePaths.url("feeds/sample-rss2.xml").path, "neither OPML nor a newsboat urls file")] {
            let result = try cli.run(["import", argument], timeout: 5)
            XCTAssertEqual(result.status, 2, argument)
            XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains(words), result.stderr)
            XCTAssertEqual(result.stdout, "")
        }
        // A broken config does not stop an import, which needs none
        try cli.writeConfig("[nonsense]\n")
        try writeURLs("\(world.absoluteString)\n")
        XCTAssertEqual(try cli.run(["import", urlsFile.path]).status, 0)
    }
}
