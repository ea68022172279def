import Foundation
@testable import HeadlinesCore
@testable import HeadlinesHTTP
import HeadlinesSources
import TestSupport
import XCTest

/// A page from elsewhere may not make `headlines add` request this machine or its local network:
/// its feed links there are the way a stranger's page would reach a router's page or a local admin
/// port. The loopback server plays the outside by being the proxy (`http_proxy`): a page then is
/// from elsewhere by its name, and every request through the proxy arrives there to be seen.
final class AddLocalNetworkTests: EndToEndTestCase {
    var service: LoopbackHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        service = LoopbackHTTPServer()
        try service.start()
        service.route("/admin.rss", .respond(status: 200, headers: [:], body: rss))
    }

    override func tearDown() {
        service?.stop()
        super.tearDown()
    }

    let rss = Data("""
        <?xml version="1.0"?><rss version="2.0"><channel><title>Feed</title><link>https://example.com/</link>
        <item><title>One</title><link>https://example.com/1</link></item></channel></rss>
        """.utf8)
    let config = "[source]\nprovider = feeds\nfeeds = https://feeds.example.org/world.rss\n"
    var proxy: [String: String] { ["http_proxy": server.baseURL.absoluteString] }

    func page(linking hrefs: [String]) -> LoopbackHTTPServer.Behaviour {
        let links = hrefs.map { #"<link rel="alternate" type="application/rss+xml" href="\#($0)">"# }.joined()
        return .respond(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html><head>\(links)</head></html>".utf8))
    }

    /// Requests for the local network, whether straight to the service or through the proxy.
    func localRequests() -> [String] {
        service.requests.map(\.target) + server.requests.map(\.target).filter { !$0.hasPrefix("http://blog.example.invalid/") }
    }

    func testAnOutsidePageLinkingOnlyLocalFeedsMakesNoRequestThereAndSaysWhy() throws {
        let port = service.baseURL.port!
        server.route("http://blog.example.invalid/", page(linking: [
            "http://127.0.0.1:\(port)/admin.rss", "http://localhost:\(port)/admin.rss", "http://[::1]:\(port)/admin.rss",
            "http://10.1.2.3/feed.rss", "http://192.168.1.1/feed.rss", "http://169.254.169.254/latest", "http://[fd00::1]/feed.rss",
        ]))
        try cli.writeConfig(config)
        let run = try cli.run(["add", "http://blog.example.invalid/"], environment: proxy)
        XCTAssertEqual(localRequests(), [], "a local address was requested")
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr, "headlines: http://blog.example.invalid/ is not a feed, and the feeds it links are on this machine or its local network (127.0.0.1, localhost, ::1 ...), where a page from elsewhere may not lead: add such a feed by its own URL if you trust it.\n")
        XCTAssertEqual(String(decoding: try Data(contentsOf: cli.defaultConfigFile), as: UTF8.self), config)
    }

    func testAnOutsidePagesOutsideFeedIsAddedAndItsLocalOneNeverAsked() throws {
        let port = service.baseURL.port!
        server.route("http://blog.example.invalid/", page(linking: ["http://127.0.0.1:\(port)/admin.rss", "http://blog.example.invalid/feed.rss"]))
        server.route("http://blog.example.invalid/feed.rss", .respond(status: 200, headers: [:], body: rss))
        try cli.writeConfig(config)
        let run = try cli.run(["add", "http://blog.example.invalid/"], environment: proxy)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(localRequests(), [])
        XCTAssertTrue(run.stdout.hasPrefix("Added Feed (http://blog.example.invalid/feed.rss)"), run.stdout)
    }

    /// A page on this machine is the user's own server: its local feeds are its own.
    func testALocalPagesLocalFeedIsAdded() throws {
        server.route("/", page(linking: [service.baseURL.absoluteString + "/admin.rss"]))
        try cli.writeConfig(config)
        let run = try cli.run(["add", server.baseURL.absoluteString + "/"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(service.requests.map(\.path), ["/admin.rss"])
    }

    /// A name that only DNS shows is local: the connection's address is refused, and the answer
    /// is the same as for a URL that names the address, which `add` puts in its sentence.
    func testAnAddressRefusedAtConnectAnswersAsTheLocalNetwork() async throws {
        let port = UInt16(service.baseURL.port!)
        var transport = CurlTransport(limits: TransportLimits(timeout: 5)).outsideOnly()
        transport.refused = ConnectRule(refusesHost: { _ in false }, refuses: { $0.port == port })
        let answers = await transport.getAll([HTTPRequest(url: service.baseURL.appendingPathComponent("admin.rss"))])
        XCTAssertEqual(answers, [.failure(NewsError.localNetwork)])
        XCTAssertEqual(service.requests.count, 0)
        let named = await CurlTransport(limits: TransportLimits(timeout: 5)).outsideOnly().getAll([HTTPRequest(url: URL(string: "http://localhost:1/x")!)])
        XCTAssertEqual(named, [.failure(NewsError.localNetwork)])
    }
}
