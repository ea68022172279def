import Foundation
import HeadlinesCore
import HeadlinesSources
import HeadlinesHTTP
import TestSupport
import XCTest

/// `CurlTransport` against real sockets: compression, the size cap, timeouts, cut-off
/// connections and the plain-http key guard.
final class TransportTests: LoopbackServerTestCase {
    /// The NewsError a request ends in, or a failure if it succeeded or threw something else.
    func error(_ transport: CurlTransport, _ request: HTTPRequest,
               file: StaticString = #filePath, line: UInt = #line) async -> NewsError? {
        do {
            let response = try await transport.get(request)
            XCTFail("expected an error, got HTTP \(response.status) with \(response.body.count) bytes", file: file, line: line)
        } catch let error as NewsError {
            return error
        } catch {
            XCTFail("threw a non-NewsError: \(error)", file: file, line: line)
        }
        return nil
    }

    func testGzipBodyIsDecodedAndSavesBytes() async throws {
        // Given a route that compresses for clients that ask
        let body = FixturePaths.data("apitube/top-headlines-fl.json")
        server.route("/gz", .json(body), gzip: true)

        // When the transport fetches it
        let response = try await CurlTransport().get(HTTPRequest(url: url("/gz")))

        // Then it asked for gzip, fewer bytes crossed the wire, and the body came back whole
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, body)
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertTrue(request.header("accept-encoding")?.contains("gzip") ?? false, "\(request.headers)")
        XCTAssertLessThan(request.bytesSent, body.count)
    }

    func testGzipCanBeTurnedOff() async throws {
        let body = FixturePaths.data("apitube/top-headlines-fl.json")
        server.route("/gz", .json(body), gzip: true)
        let response = try await CurlTransport(limits: TransportLimits(acceptGzip: false)).get(HTTPRequest(url: url("/gz")))
        XCTAssertEqual(response.body, body)
        XCTAssertGreaterThan(server.requests.first?.bytesSent ?? 0, body.count)
    }

    func testHeadersAreSentAndReturnedLowerCased() async throws {
        server.route("/h", .respond(status: 201, headers: ["X-RateLimit-Remaining": "7"], body: Data("{}".utf8)))
        let response = try await CurlTransport().get(HTTPRequest(url: url("/h"), headers: ["X-Api-Key": "k-1"], carriesKey: true))
        XCTAssertEqual(response.status, 201)
        XCTAssertEqual(response.header("x-ratelimit-remaining"), "7")
        XCTAssertEqual(server.requests.first?.header("x-api-key"), "k-1")
        XCTAssertTrue(server.requests.first?.header("user-agent")?.hasPrefix("headlines/") ?? false)
    }

    func testBodyOverTheCapIsResponseTooLarge() async throws {
        server.route("/big", .respond(status: 200, headers: [:], body: Data(count: 2 * 1024 * 1024)))
        let transport = CurlTransport(limits: TransportLimits(maxResponseBytes: 1024 * 1024))
        let error = await error(transport, HTTPRequest(url: url("/big")))
        XCTAssertEqual(error, .responseTooLarge(limit: 1024 * 1024))
    }

    func testUnframedBodyOverTheCapIsResponseTooLarge() async throws {
        // No Content-Length: only counting the bytes as they arrive can catch it.
        server.route("/big", .unframed(status: 200, body: Data(count: 2 * 1024 * 1024)))
        let transport = CurlTransport(limits: TransportLimits(maxResponseBytes: 1024 * 1024))
        let error = await error(transport, HTTPRequest(url: url("/big")))
        XCTAssertEqual(error, .responseTooLarge(limit: 1024 * 1024))
    }

    func testCompressedBodyIsCappedAfterDecompression() async throws {
        // 3 MiB of zeros gzip to a few KiB: only counting decoded bytes catches it.
        server.route("/bomb", .respond(status: 200, headers: [:], body: Data(count: 3 * 1024 * 1024)), gzip: true)
        let transport = CurlTransport(limits: TransportLimits(maxResponseBytes: 1024 * 1024))
        let error = await error(transport, HTTPRequest(url: url("/bomb")))
        XCTAssertEqual(error, .responseTooLarge(limit: 1024 * 1024))
        XCTAssertLessThan(server.requests.first?.bytesSent ?? .max, 64 * 1024, "the body was not sent compressed")
    }

    func testBodyJustUnderTheCapIsKept() async throws {
        let body = Data(repeating: 7, count: 64 * 1024)
        server.route("/ok", .unframed(status: 200, body: body))
        let response = try await CurlTransport(limits: TransportLimits(maxResponseBytes: 64 * 1024)).get(HTTPRequest(url: url("/ok")))
        XCTAssertEqual(response.body, body)
    }

    func testSilentServerTimesOut() async throws {
        server.route("/silent", .neverAnswer)
        let started = Date()
        let error = await error(CurlTransport(limits: TransportLimits(timeout: 1)), HTTPRequest(url: url("/silent")))
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(error, .timedOut(seconds: 1))
        XCTAssertLessThan(elapsed, 3, "a 1 s timeout took \(elapsed) s")
    }

    func testWaitingOnASilentServerCostsNoCPU() async throws {
        // URLSession busy-polled: 26 s of CPU for a 30 s timeout. The whole test process counts
        // here, the server's threads (blocked in recv) included.
        server.route("/silent", .neverAnswer)
        func cpu() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        let before = cpu()
        let error = await error(CurlTransport(limits: TransportLimits(timeout: 2)), HTTPRequest(url: url("/silent")))
        let used = cpu() - before
        XCTAssertEqual(error, .timedOut(seconds: 2))
        XCTAssertLessThan(used, 0.1, "a 2 s wait cost \(used) s of CPU")
    }

    func testTrickleSlowerThanTheTimeoutTimesOut() async throws {
        // 2 KiB at 200 bytes a second needs 10 s; the whole request has 1.5 s.
        server.route("/slow", .trickle(status: 200, body: Data(count: 2048), bytesPerSecond: 200))
        let started = Date()
        let error = await error(CurlTransport(limits: TransportLimits(timeout: 1.5)), HTTPRequest(url: url("/slow")))
        XCTAssertEqual(error, .timedOut(seconds: 1.5))
        XCTAssertLessThan(Date().timeIntervalSince(started), 3.5)
    }

    func testTrickleWithinTheTimeoutArrivesWhole() async throws {
        let body = Data((0..<400).map { UInt8($0 % 251) })
        server.route("/slow", .trickle(status: 200, body: body, bytesPerSecond: 1000))
        let response = try await CurlTransport(limits: TransportLimits(timeout: 5)).get(HTTPRequest(url: url("/slow")))
        XCTAssertEqual(response.body, body)
    }

    func testResetMidBodyIsUnreachable() async throws {
        server.route("/reset", .resetMidBody(status: 200, body: Data(count: 64 * 1024)))
        let error = await error(CurlTransport(limits: TransportLimits(timeout: 5)), HTTPRequest(url: url("/reset")))
        guard case .unreachable = error else { return XCTFail("expected unreachable, got \(String(describing: error))") }
    }

    func testBodyShortOfContentLengthIsAnError() async throws {
        server.route("/short", .truncated(status: 200, body: Data(count: 100), claimedLength: 1000))
        let error = await error(CurlTransport(limits: TransportLimits(timeout: 5)), HTTPRequest(url: url("/short")))
        XCTAssertNotNil(error)
    }

    func testConnectionRefusedIsUnreachable() async throws {
        let closed = URL(string: "http://127.0.0.1:\(try LoopbackHTTPServer.closedPort())/x")!
        let error = await error(CurlTransport(limits: TransportLimits(timeout: 5)), HTTPRequest(url: closed))
        XCTAssertEqual(error, .unreachable(detail: "connection refused"))
    }

    func testKeyNeverGoesOverPlainHTTPToANonLoopbackHost() async throws {
        // 0.0.0.0 is not a loopback name, yet on Linux a connect to it reaches this server: so a
        // request that slipped past the guard would show up in `server.requests`.
        server.route("/k", .json(Data("{}".utf8)))
        let target = URL(string: "http://0.0.0.0:\(server.baseURL.port!)/k")!
        let started = Date()
        let error = await error(CurlTransport(limits: TransportLimits(timeout: 5)),
                                HTTPRequest(url: target, headers: ["X-API-Key": "k-2"], carriesKey: true))
        XCTAssertEqual(error, .insecureTransport(host: "0.0.0.0"))
        // Well under the 5 s timeout: refused before any wait, with room for a loaded machine.
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.5)
        XCTAssertEqual(server.requests.count, 0, "a connection was made: \(server.requests)")

        // Control: the same address without a key does reach the server, so the check above is real.
        _ = try await CurlTransport(limits: TransportLimits(timeout: 5)).get(HTTPRequest(url: target))
        XCTAssertEqual(server.requests.count, 1)
    }

    func testKeyToARemoteHTTPHostIsRefusedWithoutNetwork() async throws {
        let request = HTTPRequest(url: URL(string: "http://api.example.com/v1/news/top-headlines")!,
                                  headers: ["X-API-Key": "k-3"], carriesKey: true)
        let started = Date()
        let error = await error(CurlTransport(limits: TransportLimits(timeout: 10)), request)
        XCTAssertEqual(error, .insecureTransport(host: "api.example.com"))
        // Well under the 10 s timeout: refused before any lookup, with room for a loaded machine.
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }
}
