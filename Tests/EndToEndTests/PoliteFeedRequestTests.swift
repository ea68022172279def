import Foundation
import TestSupport
import XCTest

/// What a publisher sees of `headlines fetch` from one run to the next: its own validators
/// echoed exactly, its feed's URL unchanged, and none of its cookies.
final class PoliteFeedRequestTests: EndToEndTestCase {
    private var rss: Data { FixturePaths.data("feeds/sample-rss2.xml") }

    private func fetchTwice(_ feeds: [URL]) throws {
        let config = try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(feeds.map(\.absoluteString).joined(separator: ";"))\n")
        for _ in 0..<2 {
            let run = try cli.run(["--config", config.path, "fetch"])
            XCTAssertEqual(run.status, 0, run.stderr)
        }
    }

    func testAWeakETagAndAnOldStyleDateAreEchoedByteForByte() throws {
        // Given a weak ETag holding every character an ETag may, and a Last-Modified in the
        // obsolete RFC 850 form a server may still send
        let etag = #"W/"!#$%&'()*+,-./09:;<=>?@AZ[\]^_`az{|}~""#
        let lastModified = "Sunday, 29-Nov-26 22:30:00 GMT"
        let validators = ["ETag": etag, "Last-Modified": lastModified, "Content-Type": "application/rss+xml"]
        server.route("/world.rss", .sequence([.respond(status: 200, headers: validators, body: rss),
                                              .respond(status: 304, headers: ["ETag": etag], body: Data())]))

        // When the feed is fetched twice
        try fetchTwice([server.baseURL.appendingPathComponent("world.rss")])

        // Then the second request carried both exactly as the server sent them
        let requests = server.requests
        XCTAssertEqual(requests.count, 2)
        XCTAssertEqual(requests.last?.header("if-none-match"), etag)
        XCTAssertEqual(requests.last?.header("if-modified-since"), lastModified)
    }

    func testAFeedIsRequestedAtItsURLExactlyAndNoCookieIsKeptFromOneRunToTheNext() throws {
        // Given a feed without a query and one with, both setting a cookie
        let cookie = ["Set-Cookie": "visitor=v-1; Path=/; Max-Age=86400", "Content-Type": "application/rss+xml"]
        server.route("/plain.rss", .respond(status: 200, headers: cookie, body: rss))
        server.route("/query.rss", .respond(status: 200, headers: cookie, body: rss))
        let plain = server.baseURL.appendingPathComponent("plain.rss")
        let query = URL(string: server.baseURL.absoluteString + "/query.rss?lang=en&tags=a%2Cb")!

        // When both are fetched in one run and again in the next
        try fetchTwice([plain, query])

        // Then each request's target is the configured URL's, and none carried the cookie
        let requests = server.requests
        XCTAssertEqual(requests.map(\.target).sorted(), ["/plain.rss", "/plain.rss", "/query.rss?lang=en&tags=a%2Cb", "/query.rss?lang=en&tags=a%2Cb"])
        for request in requests { XCTAssertNil(request.header("cookie"), "\(request) sent a cookie") }
    }
}
