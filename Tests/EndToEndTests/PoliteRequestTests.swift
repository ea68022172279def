import Foundation
import HeadlinesCore
import HeadlinesSources
import HeadlinesHTTP
import TestSupport
import XCTest

/// What `CurlTransport` sends a publisher, and what it keeps of the answer: the encodings it
/// takes, the User-Agent, no cookie, and where a permanent redirect leads.
final class PoliteRequestTests: LoopbackServerTestCase {
    let text = Data("<rss version=\"2.0\"><channel><title>Compressed</title></channel></rss>\n".utf8)

    func testGzipAndBrotliAreBothOfferedAndABrotliBodyIsDecoded() async throws {
        // Given a body the server sends brotli-encoded whatever was asked
        server.route("/br", .respond(status: 200, headers: ["Content-Encoding": "br"], body: Brotli.stored(text)))

        // When the transport fetches it
        let response = try await CurlTransport().get(HTTPRequest(url: url("/br")))

        // Then it offered both encodings, and the body came back decoded
        let offered = server.requests.first?.header("accept-encoding")?.split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        XCTAssertTrue(offered.contains("gzip") && offered.contains("br"), "\(offered)")
        XCTAssertEqual(response.body, text)
    }

    func testTheUserAgentNamesTheProjectItsVersionAndAnAddress() async throws {
        server.route("/ua", .json(Data("{}".utf8)))
        _ = try await CurlTransport().get(HTTPRequest(url: url("/ua")))
        let agent = try XCTUnwrap(server.requests.first?.header("user-agent"))
        XCTAssertTrue(agent.hasPrefix("headlines/\(HeadlinesVersion.string) (+https://"), agent)
        XCTAssertTrue(agent.hasSuffix(")"), agent)
    }

    func testACookieTheServerSetsIsNeverSentBack() async throws {
        // Given a server that sets a cookie on a redirect and on the answer
        let cookie = ["Set-Cookie": "session=s-1; Path=/; Max-Age=86400"]
        server.route("/hop", .redirect(to: "/feed", headers: cookie))
        server.route("/feed", .respond(status: 200, headers: cookie, body: text))

        // When one transport asks twice, and another asks after it
        let transport = CurlTransport(limits: TransportLimits(timeout: 5))
        _ = try await transport.get(HTTPRequest(url: url("/hop")))
        _ = await transport.getAll([HTTPRequest(url: url("/feed")), HTTPRequest(url: url("/hop"))])
        _ = try await CurlTransport(limits: TransportLimits(timeout: 5)).get(HTTPRequest(url: url("/feed")))

        // Then no request carried it
        XCTAssertEqual(server.requests.count, 6)
        for request in server.requests { XCTAssertNil(request.header("cookie"), "\(request) sent a cookie") }
    }

    // MARK: - Permanent redirects

    func permanentLocation(_ path: String) async throws -> URL? {
        try await CurlTransport(limits: TransportLimits(timeout: 5)).get(HTTPRequest(url: url(path))).permanentLocation
    }

    func testAChainOfPermanentRedirectsNamesWhereItEnded() async throws {
        server.route("/old", .redirect(to: "/older", status: 308))
        server.route("/older", .redirect(to: url("/new").absoluteString, status: 301))
        server.route("/new", .respond(status: 200, headers: [:], body: text))
        let location = try await permanentLocation("/old")
        XCTAssertEqual(location, url("/new"))
        let none = try await permanentLocation("/new")
        XCTAssertNil(none, "an answer without a redirect moved")
    }

    func testATemporaryRedirectAnywhereInTheChainMeansNoMove() async throws {
        server.route("/new", .respond(status: 200, headers: [:], body: text))
        for temporary in [302, 303, 307] {
            server.route("/first-temporary", .redirect(to: "/then-permanent", status: temporary))
            server.route("/then-permanent", .redirect(to: "/new", status: 301))
            server.route("/first-permanent", .redirect(to: "/then-temporary", status: 308))
            server.route("/then-temporary", .redirect(to: "/new", status: temporary))
            for path in ["/first-temporary", "/first-permanent"] {
                let location = try await permanentLocation(path)
                XCTAssertNil(location, "\(path) with a \(temporary)")
            }
        }
    }
}
