import Foundation
import TestSupport
import XCTest

/// `mute` of a source no cached headline has says so (and mutes anyway, since a quiet
/// source may simply have none cached yet); `page-size` cuts the merged list of feeds too.
final class MuteAndPageSizeTests: EndToEndTestCase {
    private var rss: Data { FixturePaths.data("feeds/sample-rss2.xml") }

    private func feedConfig(_ extra: String = "") throws -> URL {
        server.route("/a.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: rss))
        return try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(server.baseURL.absoluteString)/a.rss\n\(extra)")
    }

    private func listCount(_ config: URL) throws -> Int {
        let list = try cli.run(["--config", config.path, "list", "--json"])
        let items = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [Any]
        return items?.count ?? -1
    }

    func testMutingASourceNoHeadlineHasSaysSoAndMutesAnyway() throws {
        let config = try feedConfig()
        XCTAssertEqual(try cli.run(["--config", config.path, "fetch"]).status, 0)
        let (bus, host) = try cli.activatingBus()
        defer { bus.stop() }
        let mute = try cli.run(["--config", config.path, "mute", "Nosuch Source"], environment: host)
        XCTAssertEqual(mute.status, 0, mute.stderr)
        XCTAssertTrue(mute.stdout.hasPrefix("No cached headline is from Nosuch Source (the cached ones are "), mute.stdout)
        XCTAssertTrue(mute.stdout.contains("muted anyway"), mute.stdout)
        XCTAssertEqual(try cli.run(["--config", config.path, "muted"]).stdout, "Nosuch Source\n")
    }

    func testMutingACachedSourceSaysMuted() throws {
        let config = try feedConfig()
        XCTAssertEqual(try cli.run(["--config", config.path, "fetch"]).status, 0)
        let list = try cli.run(["--config", config.path, "list", "--json"])
        let first = (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])?.first
        let source = try XCTUnwrap(first?["source"] as? String, list.stdout)
        let (bus, host) = try cli.activatingBus()
        defer { bus.stop() }
        let mute = try cli.run(["--config", config.path, "mute", source.uppercased()], environment: host)
        XCTAssertTrue(mute.stdout.hasPrefix("Muted \(source.uppercased()):"), mute.stdout)
    }

    func testPageSizeCutsTheFeedsMergedList() throws {
        let all = try feedConfig()
        XCTAssertEqual(try cli.run(["--config", all.path, "fetch"]).status, 0)
        XCTAssertEqual(try listCount(all), 10)
        let cut = try feedConfig("page-size = 3\n")
        XCTAssertEqual(try cli.run(["--config", cut.path, "fetch"]).status, 0)
        XCTAssertEqual(try listCount(cut), 3)
    }
}
