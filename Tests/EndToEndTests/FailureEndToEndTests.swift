import Foundation
import TestSupport
import XCTest

/// Every way a fetch can fail ends the same way: a non-zero exit, one sentence on stderr naming the
/// provider, no key anywhere, the cache byte-for-byte as it was, and `list` saying it is stale.
final class FailureEndToEndTests: EndToEndTestCase {
    private func json(_ text: String) -> Data { Data(text.utf8) }

    func testInvalidKey401EchoingTheKeyShowsItRedacted() throws {
        // The server's message repeats the key it was sent, as some APIs do.
        try assertFailedFetch(.json(json("""
            {"status":"not_ok","request_id":"r-1","errors":[{"status":401,"code":"ER0175","message":"Invalid API key: \(Self.apitubeKey)"}]}
            """), status: 401), mentions: ["rejected the API key", "ER0175", "Invalid API key: [redacted]", "APITUBE_API_KEY"])
    }

    func testForbidden403() throws {
        try assertFailedFetch(.json(json("""
            {"status":"not_ok","request_id":"r-4","errors":[{"status":403,"code":"ER0601","message":"Your plan does not allow this endpoint"}]}
            """), status: 403), mentions: ["refused the request", "ER0601"])
    }

    func testNotOKUnderHTTP200() throws {
        try assertFailedFetch(.json(json("""
            {"status":"not_ok","request_id":"r-2","errors":[{"status":400,"code":"ER0171","message":"per_page exceeds your plan"}]}
            """)), mentions: ["ER0171"])
    }

    func testRateLimited429WithRetryAfter() throws {
        try assertFailedFetch(.respond(status: 429, headers: ["Retry-After": "60", "Content-Type": "application/json"], body: json("""
            {"status":"not_ok","request_id":"r-3","errors":[{"status":429,"code":"ER0203","message":"Too many requests"}]}
            """)), mentions: ["rate-limiting", "until"])
    }

    func testRateLimited429WithoutBody() throws {
        try assertFailedFetch(.respond(status: 429, headers: ["Retry-After": "60"], body: Data()), mentions: ["rate-limiting"])
    }

    func testServerError500() throws {
        try assertFailedFetch(.respond(status: 500, headers: ["Content-Type": "text/plain"], body: json("boom")),
                              mentions: ["had a server error (HTTP 500)"])
    }

    func testBadGateway502FromNginx() throws {
        try assertFailedFetch(.respond(status: 502, headers: ["Content-Type": "text/html"], body: FixturePaths.data("apitube/error-page.html")),
                              mentions: ["had a server error (HTTP 502)"])
    }

    func testServiceUnavailable503() throws {
        try assertFailedFetch(.json(json("""
            {"status":"not_ok","request_id":"r-5","errors":[{"status":503,"code":"ER0183","message":"Service temporarily unavailable"}]}
            """), status: 503), mentions: ["had a server error (HTTP 503)", "ER0183"])
    }

    func testHTMLPageUnderHTTP200() throws {
        try assertFailedFetch(.respond(status: 200, headers: ["Content-Type": "text/html"], body: json("""
            <!DOCTYPE html><html><head><title>Captive portal</title></head><body>Please log in</body></html>
            """)), mentions: ["HTML"])
    }

    func testTruncatedJSONBody() throws {
        let prefix = apitubeFixture.prefix(apitubeFixture.count / 2)
        try assertFailedFetch(.json(Data(prefix)), mentions: ["truncated or invalid JSON"])
    }

    func testConnectionCutShortOfContentLength() throws {
        try assertFailedFetch(.truncated(status: 200, body: apitubeFixture.prefix(1000), claimedLength: apitubeFixture.count),
                              mentions: ["cut short"])
    }

    func testConnectionResetMidBody() throws {
        try assertFailedFetch(.resetMidBody(status: 200, body: apitubeFixture), mentions: ["could not be reached (connection"])
    }

    func testBodyOverTheSizeCap() throws {
        let huge = Data(repeating: UInt8(ascii: " "), count: 5 * 1024 * 1024)
        try assertFailedFetch(.json(huge), mentions: ["sent more than 4096 KiB"])
    }

    func testBodyOverTheSizeCapWithoutContentLength() throws {
        let huge = Data(repeating: UInt8(ascii: " "), count: 5 * 1024 * 1024)
        try assertFailedFetch(.unframed(status: 200, body: huge), mentions: ["sent more than 4096 KiB"])
    }

    func testConnectionRefused() throws {
        let closed = URL(string: "http://127.0.0.1:\(try LoopbackHTTPServer.closedPort())")!
        try assertFailedFetch(nil, failingBaseURL: closed, mentions: ["could not be reached (connection refused)"])
    }

    func testServerThatNeverAnswersTimesOutAtTheConfiguredTimeout() throws {
        // The shortest timeout the config allows, so the test costs one second.
        try cli.writeConfig("[source]\ntimeout = 1s\n")
        let failed = try assertFailedFetch(.neverAnswer, mentions: ["did not answer within 1 s", "timeout"])
        XCTAssertLessThan(failed.elapsed, 7, "the 1 s timeout took \(failed.elapsed) s")
        XCTAssertGreaterThan(failed.elapsed, 0.9, "gave up after \(failed.elapsed) s, before the timeout")
    }

    func testServerThatTricklesPastTheTimeoutIsCutOffAtTheTimeout() throws {
        // The fixture at 500 bytes a second takes over 7 s; the configured limit is 1 s for the
        // whole request, not only for a silence between two packets.
        try cli.writeConfig("[source]\ntimeout = 1s\n")
        let failed = try assertFailedFetch(.trickle(status: 200, body: apitubeFixture, bytesPerSecond: 500),
                                           mentions: ["did not answer within 1 s"])
        XCTAssertLessThan(failed.elapsed, 4, "the 1 s timeout took \(failed.elapsed) s")
    }

    // MARK: -

    /// Given a good fetch filled the cache, when the next fetch meets `failure` (or
    /// `failingBaseURL`), then it fails cleanly and leaves the cache alone.
    @discardableResult
    private func assertFailedFetch(_ failure: LoopbackHTTPServer.Behaviour?, failingBaseURL: URL? = nil, mentions: [String],
                                   file: StaticString = #filePath, line: UInt = #line) throws -> CLIRunner.Result {
        // Given a cache filled by a successful fetch
        server.route(Self.apitubePath, .sequence([.json(apitubeFixture)] + (failure.map { [$0] } ?? [])))
        let good = try fetchAPITube()
        XCTAssertEqual(good.status, 0, "the first fetch failed: \(good.stderr)", file: file, line: line)
        let cached = try Data(contentsOf: cli.cacheFile)

        // When the next fetch fails
        let failed = try fetchAPITube(baseURL: failingBaseURL, timeout: 40)

        // Then: non-zero exit, one sentence naming APITube, no key, the cache untouched
        guard failed.status != 0 else {
            XCTFail("the fetch succeeded (exit 0) where it should have failed; stdout:\n\(failed.stdout)", file: file, line: line)
            return failed
        }
        XCTAssertEqual(failed.stderrLines.count, 1, "stderr: \(failed.stderr)", file: file, line: line)
        XCTAssertTrue(failed.stderr.hasSuffix(".\n"), "not one finished sentence: \(failed.stderr)", file: file, line: line)
        XCTAssertTrue(failed.stderr.contains("APITube"), failed.stderr, file: file, line: line)
        for word in mentions {
            XCTAssertTrue(failed.stderr.contains(word), "stderr lacks '\(word)': \(failed.stderr)", file: file, line: line)
        }
        assertNoKeyLeaks(good, file: file, line: line)
        assertNoKeyLeaks(failed, file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: cli.cacheFile), cached, "the failed fetch changed the cache", file: file, line: line)
        if failingBaseURL == nil {
            XCTAssertEqual(server.requests.count, 2, "requests: \(server.requests)", file: file, line: line)
        }

        // And list still shows the old headlines under a stale warning
        let list = try cli.run(["list"])
        XCTAssertEqual(list.status, 0, file: file, line: line)
        XCTAssertTrue(list.stdoutLines.first?.hasPrefix("! Stale") ?? false, "list:\n\(list.stdout)", file: file, line: line)
        XCTAssertTrue(list.stdout.contains("APITube"), "list:\n\(list.stdout)", file: file, line: line)
        XCTAssertTrue(list.stdout.contains("10. "), "list lost headlines:\n\(list.stdout)", file: file, line: line)
        assertNoKeyLeaks(list, file: file, line: line)
        return failed
    }
}
