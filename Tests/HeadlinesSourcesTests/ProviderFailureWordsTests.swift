import Foundation
import HeadlinesCore
@testable import HeadlinesSources
import TestSupport
import XCTest

/// "Words that mislead": every failure sentence names the thing that failed and the
/// setting that fixes it, in the words of its provider. Table: provider x failure.
final class ProviderFailureWordsTests: XCTestCase {
    private var dir = ""
    override func setUpWithError() throws { dir = try makeTempDir(self) }

    /// Answers every request the same way: a response, or a transport error.
    struct OneAnswer: HTTPTransport {
        let answer: Result<HTTPResponse, NewsError>
        func get(_ request: HTTPRequest) async throws -> HTTPResponse { try answer.get() }
    }

    enum Failure: String, CaseIterable {
        case htmlPage, notFound, serverError, timeout, unreachable, forbidden

        var answer: Result<HTTPResponse, NewsError> {
            let html = Data("<!DOCTYPE html>\n<html><head><title>Welcome</title></head><body><p>Hi</body></html>".utf8)
            switch self {
            case .htmlPage: return .success(HTTPResponse(status: 200, headers: ["Content-Type": "text/html"], body: html))
            case .notFound: return .success(HTTPResponse(status: 404, headers: ["Content-Type": "text/html"], body: html))
            case .serverError: return .success(HTTPResponse(status: 503, body: Data()))
            case .timeout: return .failure(.timedOut(seconds: 15))
            case .unreachable: return .failure(.unreachable(detail: "connection refused."))
            case .forbidden: return .success(HTTPResponse(status: 403, body: Data()))
            }
        }
    }

    private func provider(_ name: String, _ failure: Failure) -> HeadlineProvider {
        let t = OneAnswer(answer: failure.answer)
        let store = FeedStateStore(path: dir + "/feeds-\(name)-\(failure).json")
        switch name {
        case "feed": return FeedProvider(feeds: [URL(string: "https://news.example.com/rss/world.xml")!], store: store, transport: t)
        case "feeds":
            return FeedProvider(feeds: [URL(string: "https://news.example.com/rss/world.xml")!,
                                        URL(string: "https://other.example.org/atom")!], store: store, transport: t)
        case "json":
            return JSONAPIProvider(url: URL(string: "https://api.example.com/v1/posts")!, paths: .init(), transport: t)
        case "newsapi": return NewsAPIProvider(options: .init(), apiKey: "k", transport: t)
        default: return APITubeProvider(options: .init(), apiKey: "k", transport: t)
        }
    }

    private let expected: [String: [Failure: String]] = [
        "feed": [
            .htmlPage: "The feed https://news.example.com/rss/world.xml is an HTML page, not a feed: check the feed URL in [source] feeds.",
            .notFound: "The feed https://news.example.com/rss/world.xml was not found (404): check the feed URL in [source] feeds.",
            .serverError: "The feed https://news.example.com/rss/world.xml had a server error (HTTP 503): try again later.",
            .timeout: "The feed https://news.example.com/rss/world.xml did not answer within 15 s: check the network or raise [source] timeout.",
            .unreachable: "The feed https://news.example.com/rss/world.xml could not be reached (connection refused): check the network and the feed URL in [source] feeds.",
            .forbidden: "The feed https://news.example.com/rss/world.xml refused access (HTTP 403): check the feed URL in [source] feeds.",
        ],
        "feeds": [
            .htmlPage: "The feed https://news.example.com/rss/world.xml is an HTML page, not a feed: check the feed URL in [source] feeds; the other feed failed too.",
            .notFound: "The feed https://news.example.com/rss/world.xml was not found (404): check the feed URL in [source] feeds; the other feed failed too.",
        ],
        "json": [
            .htmlPage: "The JSON API at api.example.com sent an HTML page, not JSON: check [source] url.",
            .notFound: "The JSON API at api.example.com was not found (404): check [source] url.",
            .serverError: "The JSON API at api.example.com had a server error (HTTP 503): try again later.",
            .timeout: "The JSON API at api.example.com did not answer within 15 s: check the network or raise [source] timeout.",
            .unreachable: "The JSON API at api.example.com could not be reached (connection refused): check the network and [source] url.",
            .forbidden: "The JSON API at api.example.com refused access (HTTP 403): check [source] url.",
        ],
        "apitube": [
            .htmlPage: "APITube sent a response that is not its API's JSON (an HTML page, HTTP 200): check [source] base-url or try again later.",
            .notFound: "APITube was not found (404): check [source] base-url.",
            .unreachable: "APITube could not be reached (connection refused): check the network and [source] base-url.",
        ],
        "newsapi": [
            .notFound: "NewsAPI was not found (404): check [source] base-url.",
        ],
    ]

    func testEveryProviderNamesWhatFailedAndItsOwnSetting() async {
        for name in ["feed", "feeds", "json", "apitube", "newsapi"] {
            for failure in Failure.allCases {
                let p = provider(name, failure)
                let message: String
                do {
                    _ = try await p.fetchHeadlines(now: Date(timeIntervalSince1970: 1_764_460_800))
                    XCTFail("\(name) x \(failure): expected a failure"); continue
                } catch { message = p.failureMessage(error) }
                let label = "\(name) x \(failure): \(message)"
                XCTAssertFalse(message.contains(".."), label)
                XCTAssertTrue(message.hasSuffix("."), label)
                XCTAssertFalse(message.contains("not its API") && p.sourceKind != .newsAPI, label)
                if name == "feed" || name == "feeds" || name == "json" {
                    XCTAssertFalse(message.contains("base-url"), label)
                }
                if name.hasPrefix("feed") { XCTAssertTrue(message.contains("https://news.example.com/rss/world.xml"), label) }
                if let want = expected[name]?[failure] { XCTAssertEqual(message, want, "\(name) x \(failure)") }
            }
        }
    }

    func testAFeedBesideWorkingOnesNamesItsURLAndTheSetting() {
        let sentence = FeedProvider.partialFailure(
            NewsError.badRequest(status: 404, code: nil, message: nil).message(provider: "The feed https://a.example/x", kind: .feed),
            error: .badRequest(status: 404, code: nil, message: nil))
        XCTAssertEqual(sentence, "The feed https://a.example/x was not found (404): check the feed URL in [source] feeds; the other feeds were read, and fix its URL or remove it from [source] feeds.")
    }

    func testNoSentenceEndsInTwoPeriods() {
        for error: NewsError in [.unreachable(detail: "reset."), .noHeadlines(setting: "[source] feeds."), .malformedResponse(detail: "bad.")] {
            for kind: NewsError.SourceKind in [.newsAPI, .feed, .jsonAPI] {
                let m = error.message(provider: "X", kind: kind)
                XCTAssertFalse(m.contains(".."), m)
            }
        }
    }
}
