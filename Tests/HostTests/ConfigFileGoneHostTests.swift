import Foundation
import TestSupport
import XCTest

/// The config file deleted under a running host, then put back as it was (by a rename, as
/// editors save, then in place): the host says once that it is gone and keeps its configuration,
/// never falls back to the default source (APITube, whose key is set), and the same bytes back
/// change nothing.
final class ConfigFileGoneHostTests: HostTestCase {
    func testAConfigFileGoneAndBackAsItWasChangesNothing() throws {
        // Given a host on one feed, with --base-url sending the default source to the server too
        server.route("/calm.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: Data("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>calm</title>
            <item><title>calm story</title><link>https://calm.example/1</link></item></channel></rss>
            """.utf8)))
        let text = try writeFeedsConfig(["/calm.rss"])
        let host = try startBackground(["--base-url", server.baseURL.absoluteString, "run"])
        try expectLine("reload ok", from: host, within: 20)
        let requests = server.requests.count, mark = host.mark

        // When the file is deleted, then put back by a rename, then written in place
        try FileManager.default.removeItem(at: configFile)
        try expectLine("is gone; keeping the current configuration", from: host, after: mark, within: 5)
        let saved = cli.root.appendingPathComponent("saved.conf")
        try Data(text.utf8).write(to: saved)
        XCTAssertEqual(rename(saved.path, configFile.path), 0)
        // Long enough for the file monitor to report the rename on its own, not merged with the next.
        Thread.sleep(forTimeInterval: 1)
        try Data(text.utf8).write(to: configFile)
        Thread.sleep(forTimeInterval: 1)
        // And a real change last: once the host has taken it, it has taken everything before it.
        try Data(text.replacingOccurrences(of: "interval=1h", with: "interval=2h").utf8).write(to: configFile, options: .atomic)
        try expectLine("config file saved: configuration re-read", from: host, after: mark, within: 5)

        // Then nothing was requested, it said once that the file was gone, and re-read only the change
        XCTAssertEqual(server.requests.count, requests, "requests while the file was gone and back: \(server.requests.dropFirst(requests))")
        XCTAssertEqual(host.lines(containing: "is gone", after: mark).count, 1, host.transcript)
        XCTAssertEqual(host.lines(containing: "configuration re-read", after: mark).count, 1, host.transcript)
        XCTAssertTrue(host.lines(containing: "news source changed", after: mark).isEmpty, host.transcript)
        assertStopsQuickly(host, "after the config came back")
    }
}
