import Foundation
import TestSupport
import XCTest

/// Feeds whose body never ends: the 4 MiB cap must stop `headlines fetch` as the bytes arrive,
/// counted after decompression, or it would read (and hold) until the timeout.
final class EndlessBodyTests: EndToEndTestCase {
    /// `headlines fetch` of one feed at `path`, with a timeout the cap must beat.
    private func fetchFeed(_ path: String) throws -> CLIRunner.Result {
        let feed = server.baseURL.appendingPathComponent(String(path.dropFirst()))
        try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(feed.absoluteString)\ntimeout = 20s\n")
        return try cli.run(["fetch"], timeout: 40)
    }

    private func assertCapped(_ run: CLIRunner.Result, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNotEqual(run.status, 0, "the endless feed was accepted: \(run.stdout)", file: file, line: line)
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr, file: file, line: line)
        XCTAssertTrue(run.stderr.contains("sent more than 4096 KiB: check the feed URL in [source] feeds."), run.stderr, file: file, line: line)
    }

    func testACloseDelimitedBodyWithNoEndIsCutAtTheCap() throws {
        server.route("/endless.rss", .endless(status: 200, headers: ["Content-Type": "application/rss+xml"], prefix: Data(),
                                              repeating: Data(repeating: UInt8(ascii: "0"), count: 65536)))
        assertCapped(try fetchFeed("/endless.rss"))
    }

    func testAGzipStreamOfZerosWithNoEndIsCutAtTheCapOfDecodedBytes() throws {
        // 13 bytes on the wire decode to 2064: a cap on the wire's bytes would let about 650 MiB
        // through before it stopped anything.
        let zeros = Gzip.endlessZeros
        server.route("/bomb.rss", .endless(status: 200, headers: ["Content-Type": "application/rss+xml", "Content-Encoding": "gzip"],
                                           prefix: zeros.head, repeating: zeros.unit))
        assertCapped(try fetchFeed("/bomb.rss"))
    }
}
