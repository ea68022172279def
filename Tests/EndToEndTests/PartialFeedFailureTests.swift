import Foundation
import TestSupport
import XCTest

/// Some feeds failing while others answer: the fetch succeeds with the good feeds' headlines, and
/// says which feeds failed, once after the list (`fetch`) and in `status`.
final class PartialFeedFailureTests: EndToEndTestCase {
    private var rss: Data { FixturePaths.data("feeds/sample-rss2.xml") }

    private func feedsConfig(_ urls: [URL]) throws -> URL {
        try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(urls.map(\.absoluteString).joined(separator: ";"))\n")
    }

    func testFetchListsTheGoodFeedThenWarnsOncePerFailingFeed() throws {
        // Given one good feed and one that answers 404
        server.route("/good.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: rss))
        server.route("/gone.rss", .respond(status: 404, headers: [:], body: Data("not here\u{1B}[2J".utf8)))
        let good = server.baseURL.appendingPathComponent("good.rss")
        let gone = server.baseURL.appendingPathComponent("gone.rss")
        let config = try feedsConfig([gone, good])

        // When fetched
        let fetch = try cli.run(["--config", config.path, "fetch"])

        // Then it succeeds and lists the good feed's ten headlines on stdout,
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        XCTAssertTrue(fetch.stdout.contains("Central bank holds rates steady"), fetch.stdout)
        // and stderr has exactly one warning, naming the failing feed and the fix, no control characters
        let warnings = fetch.stderrLines.filter { $0.hasPrefix("headlines: warning: ") }
        XCTAssertEqual(warnings.count, 1, fetch.stderr)
        let warning = warnings.first ?? ""
        XCTAssertTrue(warning.contains(gone.absoluteString) && warning.contains("not found (404)"), warning)
        XCTAssertTrue(warning.contains("[source] feeds"), "the warning should say what to fix: \(warning)")
        XCTAssertFalse(warning.contains(good.absoluteString), warning)
        XCTAssertFalse(fetch.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, fetch.stderr)
        XCTAssertEqual(try listJSON().count, 10)
    }

    func testEveryFeedAnsweringMeansNoWarning() throws {
        // Given two good feeds
        server.route("/a.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: rss))
        server.route("/b.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: rss))
        let config = try feedsConfig([server.baseURL.appendingPathComponent("a.rss"), server.baseURL.appendingPathComponent("b.rss")])

        // When fetched, then nothing is written to stderr
        let fetch = try cli.run(["--config", config.path, "fetch"])
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        XCTAssertEqual(fetch.stderr, "")
    }

    func testStatusNamesTheFailingFeedsAndSaysNotFetchedYetForANewOne() throws {
        // Given a good feed and a 404 feed fetched once, then a third feed added to the config
        server.route("/good.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: rss))
        server.route("/gone.rss", .respond(status: 404, headers: [:], body: Data()))
        let good = server.baseURL.appendingPathComponent("good.rss")
        let gone = server.baseURL.appendingPathComponent("gone.rss")
        let added = server.baseURL.appendingPathComponent("added.rss")
        XCTAssertEqual(try cli.run(["--config", try feedsConfig([gone, good]).path, "fetch"]).status, 0)
        let config = try feedsConfig([gone, good, added])

        // When status is asked
        let status = try cli.run(["--config", config.path, "status"])
        let json = try cli.run(["--config", config.path, "status", "--json"])

        // Then it names the failing feed, says the good one is ok, and the new one not fetched yet
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdoutLines.contains { $0.hasPrefix("Failing feeds: 1 of 3: \(gone.absoluteString)") }, status.stdout)
        func line(_ url: URL) -> String { status.stdoutLines.first { $0.hasPrefix("Feed:") && $0.contains(url.absoluteString + ":") } ?? "" }
        XCTAssertTrue(line(gone).contains("FAILING") && line(gone).contains("not found (404)"), status.stdout)
        // a feed line says its URL once, not again inside the error
        XCTAssertEqual(line(gone).components(separatedBy: gone.absoluteString).count, 2, line(gone))
        XCTAssertTrue(line(good).contains("ok, 10 headlines"), status.stdout)
        XCTAssertTrue(line(added).hasSuffix(": not tried yet"), status.stdout)
        XCTAssertFalse(line(added).contains("FAILING"), status.stdout)
        XCTAssertTrue(status.stdoutLines.contains("Config:        \(config.path)"), status.stdout)
        XCTAssertTrue(status.stdoutLines.contains("Muted:         none"), status.stdout)
        XCTAssertFalse(status.stdout.contains("no answer yet"), status.stdout)
        struct Report: Decodable { struct Feed: Decodable { var url: String; var state: String }; var feeds: [Feed] }
        let feeds = try JSONDecoder().decode(Report.self, from: Data(json.stdout.utf8)).feeds
        XCTAssertEqual(feeds.map(\.state), ["failing", "ok", "not fetched yet"])
    }
}
