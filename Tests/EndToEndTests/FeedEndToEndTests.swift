import Foundation
import TestSupport
import XCTest

/// The keyless feed provider against a loopback server: conditional GET, several feeds with one
/// failing, and the default that needs no key.
final class FeedEndToEndTests: EndToEndTestCase {
    private var rss: Data { FixturePaths.data("feeds/sample-rss2.xml") }

    private func writeFeedsConfig(_ urls: [URL]) throws -> URL {
        try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(urls.map(\.absoluteString).joined(separator: ";"))\n")
    }

    func testAnUnchangedFeedCostsA304WithNoBodyAndNoParse() throws {
        // Given a feed served with an ETag and Last-Modified, then answered 304
        let validators = ["ETag": "\"v1\"", "Last-Modified": "Sun, 29 Nov 2026 22:30:00 GMT", "Content-Type": "application/rss+xml"]
        server.route("/world.rss", .sequence([.respond(status: 200, headers: validators, body: rss),
                                              .respond(status: 304, headers: ["ETag": "\"v1\""], body: Data())]))
        let config = try writeFeedsConfig([server.baseURL.appendingPathComponent("world.rss")])

        // When it is fetched twice
        let first = try cli.run(["--config", config.path, "fetch"])
        let second = try cli.run(["--config", config.path, "fetch"])

        // Then the second request carried the validators and got a 304 with no body,
        // and the headlines are the same ten, from the feed state
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(second.status, 0, second.stderr)
        let requests = server.requests
        XCTAssertEqual(requests.count, 2)
        XCTAssertNil(requests[0].header("if-none-match"))
        XCTAssertEqual(requests[1].header("if-none-match"), "\"v1\"")
        XCTAssertEqual(requests[1].header("if-modified-since"), "Sun, 29 Nov 2026 22:30:00 GMT")
        XCTAssertLessThan(requests[1].bytesSent, 200, "a 304 carries headers only")
        XCTAssertGreaterThan(requests[0].bytesSent, rss.count)
        let listed = try listJSON()
        XCTAssertEqual(listed.count, 10)
        XCTAssertEqual(listed.first?.title, "Central bank holds rates steady as inflation cools")
        XCTAssertEqual(listed.first?.source, "Sample World News")
    }

    func testOneFailingFeedDoesNotHideTheOtherAndStatusNamesIt() throws {
        // Given two feeds, one of which answers 500
        server.route("/good.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: rss))
        server.route("/broken.rss", .respond(status: 500, headers: [:], body: Data("oops".utf8)))
        let good = server.baseURL.appendingPathComponent("good.rss")
        let broken = server.baseURL.appendingPathComponent("broken.rss")
        let config = try writeFeedsConfig([broken, good])

        // When fetched
        let fetch = try cli.run(["--config", config.path, "fetch"])

        // Then the good feed's headlines are listed, and status names the failing feed and why
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        XCTAssertEqual(try listJSON().count, 10)
        let status = try cli.run(["--config", config.path, "status"])
        let line = status.stdoutLines.first { $0.hasPrefix("Feed:") && $0.contains(broken.absoluteString) } ?? ""
        XCTAssertTrue(line.contains("FAILING") && line.contains("HTTP 500"), status.stdout)
        XCTAssertTrue(status.stdoutLines.contains { $0.contains(good.absoluteString) && $0.contains("ok, 10 headlines") }, status.stdout)
    }

    func testAMalformedFeedGivesOneSentenceNamingIt() throws {
        server.route("/bad.rss", .respond(status: 200, headers: [:], body: Data("<rss><channel><item><title>cut".utf8)))
        let config = try writeFeedsConfig([server.baseURL.appendingPathComponent("bad.rss")])
        let fetch = try cli.run(["--config", config.path, "fetch"])
        XCTAssertNotEqual(fetch.status, 0)
        XCTAssertEqual(fetch.stderrLines.count, 1, fetch.stderr)
        XCTAssertTrue(fetch.stderr.contains("127.0.0.1"), fetch.stderr)
    }

    func testWithNoConfigAndNoKeyTheDefaultIsTheKeylessFeeds() throws {
        // No config file, no key: status reports the feeds provider and its default feeds.
        let status = try cli.run(["status"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("Provider:      Feeds"), status.stdout)
        XCTAssertTrue(status.stdout.contains("https://feeds.bbci.co.uk/news/world/rss.xml"), status.stdout)
    }

    func testDocumentShapesFeedparserReadsAreFetchedAndListed() throws {
        // Given, one at a time: an Atom entry document (root <entry>), RSS 1.0 under an
        // unprefixed <rdf>, and a podcast of single-quoted attributes, one broken by an
        // apostrophe, cut off mid-item
        let cases = [("atom-entry-document.xml", ["Version 3.2 is out"]),
                     ("rss10-unprefixed-rdf.xml", ["鉋の刃を研ぐ", "作業台の天板"]),
                     ("itunes-single-quoted-truncated.xml", ["Episode 112: Hand tools for beginners", "Episode 111: Finishing with oil"])]
        for (file, titles) in cases {
            server.route("/\(file)", .respond(status: 200, headers: ["Content-Type": "application/xml"],
                                              body: FixturePaths.data("feeds/\(file)")))
            let config = try writeFeedsConfig([server.baseURL.appendingPathComponent(file)])
            try? FileManager.default.removeItem(at: cli.cacheHome.appendingPathComponent("headlines"))

            // When it is fetched alone, Then it exits 0 and its items are listed in order
            let result = try cli.run(["--config", config.path, "fetch"])
            XCTAssertEqual(result.status, 0, "\(file): \(result.stderr)")
            XCTAssertEqual(try listJSON().map(\.title), titles, file)
        }
    }

    func testHugeTitlesAreCutWhereTheyArrive() throws {
        // Given a feed of ten titles of 400 KB each (kept whole, every bar rotation and keyword
        // match worked through them, and an idle host spent its CPU there)
        let items = (0..<10).map {
            "<item><title>\(String(repeating: "Long title word ", count: 25_000))\($0)</title><link>https://long.example/\($0)</link></item>"
        }
        server.route("/long.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: Data(
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>long</title>\(items.joined())</channel></rss>".utf8)))
        let config = try writeFeedsConfig([server.baseURL.appendingPathComponent("long.rss")])

        // When it is fetched
        let result = try cli.run(["--config", config.path, "fetch"])

        // Then all ten are kept, each title cut to a few hundred characters ending in an ellipsis
        XCTAssertEqual(result.status, 0, result.stderr)
        let listed = try listJSON()
        XCTAssertEqual(listed.count, 10)
        for headline in listed {
            XCTAssertLessThanOrEqual(headline.title.count, 400)
            XCTAssertTrue(headline.title.hasPrefix("Long title word") && headline.title.hasSuffix("…"), headline.title.suffix(40).description)
        }
    }
}
