import Foundation
import HeadlinesCore
import HeadlinesSources
import HeadlinesHTTP
import TestSupport
import XCTest

/// `CurlTransport`'s own handling of what libcurl would otherwise do for it: redirects hop by
/// hop, headers of the final response, conditional GET, the proxy variables, and a batch of
/// requests in flight at once.
final class CurlRedirectTests: XCTestCase {
    var server: LoopbackHTTPServer!
    var other: LoopbackHTTPServer!

    override func setUpWithError() throws {
        server = LoopbackHTTPServer()
        try server.start()
        other = LoopbackHTTPServer()
        try other.start()
    }

    override func tearDown() {
        server?.stop()
        other?.stop()
    }

    func url(_ path: String, on s: LoopbackHTTPServer? = nil) -> URL {
        (s ?? server).baseURL.appendingPathComponent(String(path.dropFirst()))
    }

    func testRedirectIsFollowedAndCountedAndOnlyTheFinalHeadersKept() async throws {
        server.route("/a", .redirect(to: "/b", headers: ["X-First": "1"]))
        server.route("/b", .redirect(to: url("/c").absoluteString, status: 301))
        server.route("/c", .json(Data("{}".utf8), headers: ["X-Last": "3"]))
        let response = try await CurlTransport().get(HTTPRequest(url: url("/a"), headers: ["X-Api-Key": "k"], carriesKey: true))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.requestCount, 3)
        XCTAssertEqual(response.header("x-last"), "3")
        XCTAssertNil(response.header("x-first"))
        XCTAssertNil(response.header("location"))
        XCTAssertEqual(server.requests.map(\.path), ["/a", "/b", "/c"])
        // Same origin: the key goes along.
        XCTAssertEqual(server.requests.last?.header("x-api-key"), "k")
    }

    func testTheTallyCountsEveryKeyedHopAndNoUnkeyedOne() async throws {
        server.route("/a", .redirect(to: "/b"))
        server.route("/b", .json(Data("{}".utf8)))
        let tally = RequestTally()
        let transport = CurlTransport(tally: tally)
        _ = try await transport.get(HTTPRequest(url: url("/a"), headers: ["X-Api-Key": "k"], carriesKey: true))
        XCTAssertEqual(tally.take(), 2)
        _ = try await transport.get(HTTPRequest(url: url("/a")))
        XCTAssertEqual(tally.take(), 0)
    }

    func testRedirectLoopStopsAfterFiveRedirects() async throws {
        server.route("/loop", .redirect(to: "/loop"))
        do {
            _ = try await CurlTransport(limits: TransportLimits(timeout: 5)).get(HTTPRequest(url: url("/loop")))
            XCTFail("a loop succeeded")
        } catch let error as NewsError {
            XCTAssertEqual(error, .unreachable(detail: "more than 5 redirects"))
        }
        XCTAssertEqual(server.requests.count, 6)
    }

    func testKeyedRedirectToAnotherOriginIsNotFollowed() async throws {
        let port = other.baseURL.port!
        server.route("/api", .redirect(to: "http://127.0.0.1:\(port)/steal"))
        other.route("/steal", .json(Data("{}".utf8)))
        do {
            _ = try await CurlTransport().get(HTTPRequest(url: url("/api"), headers: ["X-Api-Key": "k-9"], carriesKey: true))
            XCTFail("followed a keyed redirect to another port")
        } catch let error as NewsError {
            XCTAssertEqual(error, .keyRedirected(to: "127.0.0.1:\(port)", toPlainHTTP: false))
            XCTAssertEqual(error.message(provider: "APITube"),
                           "APITube redirected to 127.0.0.1:\(port); the API key was not sent there: check [source] base-url.")
        }
        XCTAssertEqual(other.requests.count, 0, "the key's request reached the other origin")

        // Control: without a key the same redirect is followed, so the check above is real.
        let response = try await CurlTransport().get(HTTPRequest(url: url("/api")))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(other.requests.count, 1)
    }

    func testRedirectToAnotherSchemeIsNotFollowed() async throws {
        server.route("/ftp", .redirect(to: "ftp://127.0.0.1/file"))
        do {
            _ = try await CurlTransport().get(HTTPRequest(url: url("/ftp")))
            XCTFail("followed a redirect to ftp")
        } catch let error as NewsError {
            XCTAssertEqual(error, .unreachable(detail: "redirected to a URL that is not http or https"))
        }
    }

    func testConditionalHeadersPassThroughAnd304IsAResponse() async throws {
        server.route("/feed", .respond(status: 304, headers: ["ETag": "\"v2\""], body: Data()))
        let request = HTTPRequest(url: url("/feed"), headers: ["If-None-Match": "\"v1\"", "If-Modified-Since": "Tue, 01 Dec 2026 08:00:00 GMT"])
        let response = try await CurlTransport().get(request)
        XCTAssertEqual(response.status, 304)
        XCTAssertEqual(response.header("etag"), "\"v2\"")
        XCTAssertEqual(server.requests.first?.header("if-none-match"), "\"v1\"")
        XCTAssertEqual(server.requests.first?.header("if-modified-since"), "Tue, 01 Dec 2026 08:00:00 GMT")
    }

    func testHTTPProxyVariableIsHonoured() async throws {
        // The "proxy" is the loopback server: an absolute-form request line arrives there.
        server.route("http://feed.example.invalid/rss", .respond(status: 200, headers: [:], body: Data("<rss/>".utf8)))
        let saved = ["http_proxy", "no_proxy", "NO_PROXY"].map { ($0, ProcessInfo.processInfo.environment[$0]) }
        setenv("http_proxy", server.baseURL.absoluteString, 1)
        unsetenv("no_proxy"); unsetenv("NO_PROXY")
        defer { for (name, value) in saved { if let value { setenv(name, value, 1) } else { unsetenv(name) } } }
        let response = try await CurlTransport(limits: TransportLimits(timeout: 5))
            .get(HTTPRequest(url: URL(string: "http://feed.example.invalid/rss")!))
        XCTAssertEqual(response.body, Data("<rss/>".utf8))
        XCTAssertEqual(server.requests.first?.target, "http://feed.example.invalid/rss")
    }

    func testAKeyOverPlainHTTPToLoopbackNeverGoesThroughAProxy() async throws {
        // `other` plays a proxy on the network: a key sent there would travel in clear text.
        server.route("/v1", .json(Data("{}".utf8)))
        let saved = ["http_proxy", "no_proxy", "NO_PROXY"].map { ($0, ProcessInfo.processInfo.environment[$0]) }
        setenv("http_proxy", other.baseURL.absoluteString, 1)
        unsetenv("no_proxy"); unsetenv("NO_PROXY")
        defer { for (name, value) in saved { if let value { setenv(name, value, 1) } else { unsetenv(name) } } }
        _ = try await CurlTransport(limits: TransportLimits(timeout: 5))
            .get(HTTPRequest(url: url("/v1"), headers: ["X-Api-Key": "k-5"], carriesKey: true))
        XCTAssertEqual(other.requests.count, 0, "the keyed request went through the proxy")
        XCTAssertEqual(server.requests.first?.header("x-api-key"), "k-5")
    }

    func testHungRequestsCostOneTimeoutBetweenThem() async throws {
        for k in 1...3 { server.route("/hung\(k)", .neverAnswer) }
        server.route("/good", .json(Data("{\"ok\":1}".utf8)))
        let requests = ["/hung1", "/hung2", "/good", "/hung3"].map { HTTPRequest(url: url($0)) }
        let started = Date()
        let results = await CurlTransport(limits: TransportLimits(timeout: 2)).getAll(requests)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertLessThan(elapsed, 3.5, "three hung requests took \(elapsed) s with a 2 s timeout")
        XCTAssertEqual(try results[2].get().body, Data("{\"ok\":1}".utf8))
        for k in [0, 1, 3] { XCTAssertEqual(results[k], .failure(.timedOut(seconds: 2))) }
    }

    func testMoreRequestsThanSlotsAllAnswerInOrder() async throws {
        for k in 0..<9 { server.route("/n\(k)", .json(Data("\(k)".utf8))) }
        let results = await CurlTransport(limits: TransportLimits(timeout: 5, maxConcurrent: 2))
            .getAll((0..<9).map { HTTPRequest(url: url("/n\($0)")) })
        XCTAssertEqual(results.map { (try? $0.get().body).map { String(decoding: $0, as: UTF8.self) } },
                       (0..<9).map { "\($0)" })
    }

    // MARK: - Hostile Location headers

    func keyed(_ path: String) -> HTTPRequest { HTTPRequest(url: url(path), headers: ["X-Api-Key": "k-7"], carriesKey: true) }

    func testRelativeAndProtocolRelativeLocationsStayOnTheOriginWithTheKey() async throws {
        let port = server.baseURL.port!
        server.route("/a/rel", .redirect(to: "next"))
        server.route("/a/next", .redirect(to: "//127.0.0.1:\(port)/done"))
        server.route("/done", .json(Data("{}".utf8)))
        let response = try await CurlTransport().get(keyed("/a/rel"))
        XCTAssertEqual(response.requestCount, 3)
        XCTAssertEqual(server.requests.map(\.path), ["/a/rel", "/a/next", "/done"])
        XCTAssertEqual(server.requests.last?.header("x-api-key"), "k-7")
    }

    func testUserinfoInALocationIsNotSentAsCredentials() async throws {
        let port = server.baseURL.port!
        server.route("/creds", .redirect(to: "http://user:pass@127.0.0.1:\(port)/done"))
        server.route("/done", .json(Data("{}".utf8)))
        for request in [HTTPRequest(url: url("/creds")), keyed("/creds")] {
            _ = try await CurlTransport().get(request)
            XCTAssertEqual(server.requests.last?.path, "/done")
            XCTAssertNil(server.requests.last?.header("authorization"), "the server's user:pass was sent back as credentials")
        }
    }

    func testCRLFAndSpacesInALocationCannotInjectHeaders() async throws {
        server.route("/crlf", .raw(Data("HTTP/1.1 302 Found\r\nLocation: /a\rX-Evil: 1\r\nContent-Length: 0\r\n\r\n".utf8)))
        server.route("/space", .redirect(to: "/a b"))
        server.route("/a", .json(Data("{}".utf8)))
        server.route("/a%20b", .json(Data("{}".utf8)))
        _ = try await CurlTransport().get(HTTPRequest(url: url("/crlf")))
        XCTAssertEqual(server.requests.last?.target, "/a")
        XCTAssertNil(server.requests.last?.header("x-evil"))
        _ = try await CurlTransport().get(HTTPRequest(url: url("/space")))
        XCTAssertEqual(server.requests.last?.target, "/a%20b")
    }

    func testFileAndGopherLocationsAreNotFollowed() async throws {
        for target in ["file:///etc/passwd", "gopher://127.0.0.1/x", "FTP://127.0.0.1/x"] {
            server.route("/odd", .redirect(to: target))
            do {
                _ = try await CurlTransport().get(HTTPRequest(url: url("/odd")))
                XCTFail("followed \(target)")
            } catch let error as NewsError {
                XCTAssertEqual(error, .unreachable(detail: "redirected to a URL that is not http or https"), target)
            }
        }
    }

    func testAKeyedRedirectToAnIPv6LiteralNamesItWithBrackets() async throws {
        server.route("/v6", .redirect(to: "http://[::1]:9/steal"))
        do {
            _ = try await CurlTransport().get(keyed("/v6"))
            XCTFail("followed a keyed redirect to [::1]")
        } catch let error as NewsError {
            XCTAssertEqual(error, .keyRedirected(to: "[::1]:9", toPlainHTTP: false))
        }
    }

    func testAKeyedUpgradeToHTTPSOnTheSameHostIsRefused() async throws {
        // Not a downgrade, but another origin (port 443 here, another server perhaps); a keyed
        // http request only goes to loopback, where the fix is an https base-url.
        server.route("/up", .redirect(to: "https://127.0.0.1/v1"))
        do {
            _ = try await CurlTransport().get(keyed("/up"))
            XCTFail("followed a keyed redirect to https")
        } catch let error as NewsError {
            XCTAssertEqual(error, .keyRedirected(to: "127.0.0.1", toPlainHTTP: false))
        }
        XCTAssertEqual(server.requests.count, 1)
    }
}
