import Foundation
import TestSupport
import XCTest
@testable import HeadlinesCore
@testable import HeadlinesSources

/// The feed provider hands the response's Content-Type to the parser, so a feed whose body names
/// no charset is read in the one its server declares.
final class FeedProviderCharsetTests: XCTestCase {
    private struct OneResponse: HTTPTransport {
        let response: HTTPResponse
        func get(_ request: HTTPRequest) async throws -> HTTPResponse { response }
    }

    func testTheContentTypeCharsetReachesTheParser() async throws {
        // Given a KOI8-R feed without an XML declaration, served as charset=KOI8-R
        let body = try Data(contentsOf: FixturePaths.url("feeds/koi8-r-undeclared.xml"))
        let transport = OneResponse(response: HTTPResponse(
            status: 200, headers: ["Content-Type": "application/rss+xml; charset=KOI8-R"], body: body))
        let store = FeedStateStore(path: NSTemporaryDirectory() + "feeds-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(atPath: store.path) }
        let provider = FeedProvider(feeds: [URL(string: "https://news.example.ru/rss")!], store: store, transport: transport)

        // When the provider fetches it
        let headlines = try await provider.fetch(now: Date(timeIntervalSince1970: 1_795_000_000))

        // Then the title is Cyrillic, not Windows-1252 mojibake
        XCTAssertEqual(headlines.map(\.title), ["Привет, мир"])
    }
}
