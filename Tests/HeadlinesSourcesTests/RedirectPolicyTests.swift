import Foundation
import XCTest
@testable import HeadlinesCore
@testable import HeadlinesSources

final class RedirectPolicyTests: XCTestCase {
    let keyed = HTTPRequest(url: URL(string: "https://api.apitube.io/v1/news/top-headlines?x=1")!,
                            headers: ["X-API-Key": "k"], carriesKey: true)

    func next(_ request: HTTPRequest, _ location: String, hop: Int = 1) -> Result<HTTPRequest, NewsError> {
        RedirectPolicy.next(after: request, to: URL(string: location)!, hop: hop)
    }

    func testKeyedRequestFollowsWithinItsOrigin() throws {
        let followed = try next(keyed, "https://API.apitube.io:443/v2/elsewhere").get()
        XCTAssertEqual(followed.url.absoluteString, "https://API.apitube.io:443/v2/elsewhere")
        XCTAssertEqual(followed.headers, keyed.headers)
        XCTAssertTrue(followed.carriesKey)
    }

    func testKeyedRequestNeverGoesToAnotherHostOrPort() {
        XCTAssertEqual(next(keyed, "https://another-host.example/x"),
                       .failure(.keyRedirected(to: "another-host.example", toPlainHTTP: false)))
        XCTAssertEqual(next(keyed, "https://api.apitube.io:8443/x"),
                       .failure(.keyRedirected(to: "api.apitube.io:8443", toPlainHTTP: false)))
        let local = HTTPRequest(url: URL(string: "http://127.0.0.1:8080/v1")!, carriesKey: true)
        XCTAssertEqual(next(local, "http://localhost:8080/v1"), .failure(.keyRedirected(to: "localhost:8080", toPlainHTTP: false)))
    }

    func testKeyedRequestIsNeverDowngradedToPlainHTTP() {
        XCTAssertEqual(next(keyed, "http://api.apitube.io/v1"), .failure(.keyRedirected(to: "api.apitube.io", toPlainHTTP: true)))
        XCTAssertEqual(NewsError.keyRedirected(to: "api.apitube.io", toPlainHTTP: true).message(provider: "APITube"),
                       "APITube redirected to plain http at api.apitube.io; the API key was not sent there: check [source] base-url.")
    }

    func testKeylessRequestFollowsAnywhereOverHTTPOrHTTPS() throws {
        let feed = HTTPRequest(url: URL(string: "https://example.org/feed")!, headers: ["If-None-Match": "\"1\""])
        XCTAssertEqual(try next(feed, "http://cdn.example.net:8080/feed.xml").get().url.host, "cdn.example.net")
        XCTAssertEqual(try next(feed, "http://cdn.example.net/feed.xml").get().headers, feed.headers)
    }

    func testOnlyHTTPAndHTTPSAreFollowed() {
        let feed = HTTPRequest(url: URL(string: "https://example.org/feed")!)
        for location in ["file:///etc/passwd", "ftp://example.org/f", "gopher://example.org/", "javascript:alert(1)"] {
            XCTAssertEqual(next(feed, location), .failure(.unreachable(detail: "redirected to a URL that is not http or https")), location)
        }
    }

    func testAtMostFiveRedirects() {
        let feed = HTTPRequest(url: URL(string: "https://example.org/feed")!)
        XCTAssertNoThrow(try next(feed, "https://example.org/5", hop: 5).get())
        XCTAssertEqual(next(feed, "https://example.org/6", hop: 6), .failure(.unreachable(detail: "more than 5 redirects")))
    }

    func testHostInTheMessageHasNoControlCharacters() {
        let local = HTTPRequest(url: URL(string: "https://a.example/")!, carriesKey: true)
        guard case let .failure(.keyRedirected(host, _)) = next(local, "https://b%1B%5B31m.example/") else {
            return XCTFail("followed")
        }
        XCTAssertFalse(host.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, host)
    }

    func testLoopbackNamesWithoutFoundationTrimming() {
        XCTAssertTrue(HTTPRequest.isLoopback("[::1]"))
        XCTAssertTrue(HTTPRequest.isLoopback("127.0.0.1"))
        XCTAssertTrue(HTTPRequest.isLoopback("LOCALHOST"))
        XCTAssertFalse(HTTPRequest.isLoopback("0.0.0.0"))
        XCTAssertFalse(HTTPRequest.isLoopback("127.0.0.1.example"))
    }
}
