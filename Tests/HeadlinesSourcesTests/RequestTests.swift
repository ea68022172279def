import Foundation
import XCTest
@testable import HeadlinesCore
@testable import HeadlinesSources
import TestSupport

/// A transport that fails the test if a provider ever calls it.
struct UnplannedTransport: HTTPTransport {
    func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        XCTFail("unexpected request to \(request.url)")
        return HTTPResponse(status: 599, body: Data())
    }
}

final class RequestTests: XCTestCase {
    let key = "sk-SECRET-123"

    func testAPITubeDefaultRequest() throws {
        // Given the default options and a key
        let provider = APITubeProvider(options: .init(), apiKey: key, transport: UnplannedTransport())
        // When the request is built
        let request = try provider.request()
        // Then it asks for newest-first English headlines, only our fields, key in the header
        XCTAssertEqual(request, HTTPRequest(
            url: url("https://api.apitube.io/v1/news/top-headlines?language.code=en&sort.by=published_at"
                     + "&sort.order=desc&per_page=10&fl=id,title,href,published_at,source.domain,image"),
            headers: ["X-API-Key": key, "Accept": "application/json"], carriesKey: true))
        XCTAssertFalse(request.url.absoluteString.contains(key))
    }

    func testAPITubeRequestWithCountryNoLanguageAndAllFields() throws {
        let options = APITubeProvider.Options(baseURL: url("http://127.0.0.1:8080/"), language: "", country: "gb",
                                              pageSize: 5, limitFields: false)
        let request = try APITubeProvider(options: options, apiKey: key, transport: UnplannedTransport()).request()
        XCTAssertEqual(request, HTTPRequest(
            url: url("http://127.0.0.1:8080/v1/news/top-headlines?source.country.code=gb&sort.by=published_at"
                     + "&sort.order=desc&per_page=5"),
            headers: ["X-API-Key": key, "Accept": "application/json"], carriesKey: true))
    }

    func testAPITubeBaseURLWithAPathPrefix() throws {
        let options = APITubeProvider.Options(baseURL: url("https://proxy.example/apitube"))
        let request = try APITubeProvider(options: options, apiKey: key, transport: UnplannedTransport()).request()
        XCTAssertEqual(request.url.path, "/apitube/v1/news/top-headlines")
        XCTAssertEqual(request.url.host, "proxy.example")
    }

    func testNewsAPIDefaultRequest() throws {
        let request = try NewsAPIProvider(options: .init(), apiKey: key, transport: UnplannedTransport()).request()
        XCTAssertEqual(request, HTTPRequest(url: url("https://newsapi.org/v2/top-headlines?country=us&pageSize=10"),
                                            headers: ["X-Api-Key": key, "Accept": "application/json"], carriesKey: true))
        XCTAssertFalse(request.url.absoluteString.contains(key))
    }

    func testNewsAPIRequestWithCategoryAndQuery() throws {
        let options = NewsAPIProvider.Options(country: "", category: "technology", query: "climate change", pageSize: 20)
        let request = try NewsAPIProvider(options: options, apiKey: key, transport: UnplannedTransport()).request()
        XCTAssertEqual(request.url, url("https://newsapi.org/v2/top-headlines?category=technology&q=climate%20change&pageSize=20"))
    }

    /// A `+` left raw in a query is read as a space by form decoders, so "C++" would search "C  ".
    func testNewsAPIQueryPlusAndAmpersandAreEncoded() throws {
        let options = NewsAPIProvider.Options(country: "", query: "C++ & Rust", pageSize: 10)
        let request = try NewsAPIProvider(options: options, apiKey: key, transport: UnplannedTransport()).request()
        XCTAssertEqual(request.url.absoluteString, "https://newsapi.org/v2/top-headlines?q=C%2B%2B%20%26%20Rust&pageSize=10")
    }

    func testMissingKeyIsTyped() {
        for apiKey in [nil, ""] as [String?] {
            XCTAssertEqual(thrownError { () throws(NewsError) in
                try APITubeProvider(options: .init(), apiKey: apiKey, transport: UnplannedTransport()).request()
            }, .missingKey(envVariable: "APITUBE_API_KEY"))
            XCTAssertEqual(thrownError { () throws(NewsError) in
                try NewsAPIProvider(options: .init(), apiKey: apiKey, transport: UnplannedTransport()).request()
            }, .missingKey(envVariable: "NEWSAPI_API_KEY"))
        }
    }

    // MARK: checkKeyIsSafe

    func testKeyOverPlainHTTPToARemoteHostIsRefused() {
        for (link, host) in [("http://example.com/v1", "example.com"), ("HTTP://Example.COM/", "example.com"),
                             ("http://localhost.evil.example/", "localhost.evil.example"),
                             ("http://10.0.0.1/", "10.0.0.1"), ("ftp://example.com/", "example.com")] {
            let request = HTTPRequest(url: url(link), headers: ["X-API-Key": key], carriesKey: true)
            let error = thrownError { () throws(NewsError) in try request.checkKeyIsSafe() }
            XCTAssertEqual(error?.message(provider: "APITube").contains(key), false)
            if case let .insecureTransport(got)? = error {
                XCTAssertEqual(got.lowercased(), host, link)
            } else {
                XCTFail("\(link): expected insecureTransport, got \(String(describing: error))")
            }
        }
    }

    /// "127." as a prefix is not loopback: 127.0.0.1.evil.example is an ordinary remote name.
    func testHostnameThatStartsWithLoopbackDigitsIsRefused() {
        let request = HTTPRequest(url: url("http://127.0.0.1.evil.example/v1"), carriesKey: true)
        XCTAssertEqual(thrownError { () throws(NewsError) in try request.checkKeyIsSafe() },
                       .insecureTransport(host: "127.0.0.1.evil.example"))
    }

    func testKeyOverHTTPSOrLoopbackIsAllowed() throws {
        for link in ["https://example.com/", "http://127.0.0.1/", "http://127.0.0.1:8080/v1", "http://localhost:9000/",
                     "http://[::1]:8080/", "http://LOCALHOST/"] {
            XCTAssertNoThrow(try HTTPRequest(url: url(link), carriesKey: true).checkKeyIsSafe(), link)
        }
    }

    func testKeylessRequestMayUsePlainHTTP() {
        XCTAssertNoThrow(try HTTPRequest(url: url("http://example.com/feed.xml"), carriesKey: false).checkKeyIsSafe())
    }

    func testFetchRefusesAnInsecureBaseURLBeforeAnyRequest() async {
        // Given a provider pointed at plain http on a remote host
        let options = APITubeProvider.Options(baseURL: url("http://api.apitube.example"))
        let provider = APITubeProvider(options: options, apiKey: key, transport: UnplannedTransport())
        // When it fetches, Then it refuses without calling the transport
        do {
            _ = try await provider.fetchHeadlines(now: fixtureNow)
            XCTFail("expected insecureTransport")
        } catch {
            XCTAssertEqual(error, .insecureTransport(host: "api.apitube.example"))
        }
    }

    func testFetchThroughFixtureTransportRunsTheWholeDecodingPath() async throws {
        // Given a fixture server answering the top-headlines path
        let transport = FixtureTransport(routes: ["/v1/news/top-headlines": FixturePaths.response("apitube/top-headlines-fl.json")])
        let provider = APITubeProvider(options: .init(), apiKey: key, transport: transport)
        // When it fetches
        let headlines = try await provider.fetchHeadlines(now: fixtureNow)
        // Then
        XCTAssertEqual(headlines, FixtureHeadlines.apitubeFL)
    }

    func testFixtureTransportAnswers404ForAnUnknownPath() async {
        let provider = NewsAPIProvider(options: .init(), apiKey: key, transport: FixtureTransport(routes: [:]))
        do {
            _ = try await provider.fetchHeadlines(now: fixtureNow)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error, .badRequest(status: 404, code: nil, message: nil))
        }
    }
}
