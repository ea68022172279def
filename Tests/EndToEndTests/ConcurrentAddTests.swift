import Foundation
import TestSupport
import XCTest

/// `headlines add` changes the config with other writers about: other `add`s started at the same
/// moment, and the user's editor saving the file while a discovery is still on the network.
/// None of their feeds may be lost.
final class ConcurrentAddTests: EndToEndTestCase {
    func rss(_ title: String) -> Data {
        Data("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>\(title)</title><link>https://example.com/</link>
            <item><title>One</title><link>https://example.com/1</link></item></channel></rss>
            """.utf8)
    }

    func feeds() -> [String] {
        let text = String(decoding: FileManager.default.contents(atPath: cli.defaultConfigFile.path) ?? Data(), as: UTF8.self)
        let line = text.split(separator: "\n").first { $0.hasPrefix("feeds = ") } ?? ""
        return line.dropFirst("feeds = ".count).split(separator: ";").map(String.init)
    }

    func testTenAddsStartedTogetherAllEndUpInTheFile() throws {
        // Each feed trickles for about half a second, so that every `add` has read the file
        // before any has written it.
        let urls = (0..<10).map { i -> String in
            server.route("/f\(i).rss", .trickle(status: 200, body: rss("Feed \(i)"), bytesPerSecond: 500))
            return server.baseURL.absoluteString + "/f\(i).rss"
        }
        try cli.writeConfig("[source]\nprovider = feeds\nfeeds = https://feeds.example.org/world.rss\n")
        let adds = try urls.map { try BackgroundProcess(cli: cli, arguments: ["add", $0]) }
        for (add, url) in zip(adds, urls) {
            XCTAssertEqual(add.waitForExit(timeout: 30)?.status, 0, add.transcript)
            XCTAssertNotNil(add.waitForLine(containing: "Added Feed", timeout: 1), "\(url): \(add.transcript)")
        }
        XCTAssertEqual(Set(feeds()), Set(["https://feeds.example.org/world.rss"] + urls))
        XCTAssertEqual(feeds().count, 11, "\(feeds())")
    }

    func testTheUsersSaveDuringADiscoveryIsKept() throws {
        // Given an `add` whose feed takes about two seconds to arrive
        server.route("/slow.rss", .trickle(status: 200, body: rss("Slow"), bytesPerSecond: 120))
        let slow = server.baseURL.absoluteString + "/slow.rss"
        try cli.writeConfig("# mine\n[source]\nprovider = feeds\nfeeds = https://a.example.org/a.rss\n")
        let add = try BackgroundProcess(cli: cli, arguments: ["add", slow])

        // When the user saves the file with one more feed meanwhile (as an editor does: a new file
        // renamed over the old one)
        XCTAssertNotNil(waitUntil(timeout: 10) { !server.requests.isEmpty }, "the add never asked for its feed")
        let saved = cli.root.appendingPathComponent("saved.conf")
        try Data("# mine\n[source]\nprovider = feeds\nfeeds = https://a.example.org/a.rss;https://b.example.org/b.rss\n".utf8).write(to: saved)
        XCTAssertEqual(rename(saved.path, cli.defaultConfigFile.path), 0)

        // Then both the user's feed and the added one are in the file
        XCTAssertEqual(add.waitForExit(timeout: 30)?.status, 0, add.transcript)
        XCTAssertEqual(feeds(), ["https://a.example.org/a.rss", "https://b.example.org/b.rss", slow])
    }
}
