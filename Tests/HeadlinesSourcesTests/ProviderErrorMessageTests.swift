import Foundation
import XCTest
import TestSupport
@testable import HeadlinesCore
@testable import HeadlinesSources

/// What each provider makes of the errors its server sends: a sentence naming the provider, never
/// the key.
final class ProviderErrorMessageTests: XCTestCase {
    let key = "sk-SECRET-123"

    /// Every error fixture, fetched with a key, turns into a message that names the provider and
    /// never the key.
    func testMessagesFromEveryErrorFixtureNeverContainTheKey() async {
        let apitube: [(String, Int)] = [("error-401-ER0175.json", 401), ("error-401-ER0230.json", 401),
                                        ("error-429-ER0203.json", 429), ("error-403-ER0601.json", 403),
                                        ("error-400-ER0171.json", 400), ("error-500-ER0183.json", 500),
                                        ("not-ok-under-200.json", 200), ("error-page.html", 502),
                                        ("error-page.html", 200), ("truncated.json", 200)]
        for (file, status) in apitube {
            let transport = FixtureTransport(routes: ["/v1/news/top-headlines": FixturePaths.response("apitube/" + file, status: status)])
            let provider = APITubeProvider(options: .init(), apiKey: key, transport: transport)
            await assertFailsWithoutKey(provider, file)
        }
        let newsapi: [(String, Int)] = [("error-apiKeyInvalid.json", 401), ("error-apiKeyMissing.json", 401),
                                        ("error-rateLimited.json", 429), ("error-parameterInvalid.json", 400),
                                        ("error-unexpectedError.json", 500), ("error-maximumResultsReached.json", 426)]
        for (file, status) in newsapi {
            let transport = FixtureTransport(routes: ["/v2/top-headlines": FixturePaths.response("newsapi/" + file, status: status)])
            let provider = NewsAPIProvider(options: .init(), apiKey: key, transport: transport)
            await assertFailsWithoutKey(provider, file)
        }
    }

    /// Some servers echo the key they rejected; our sentence must still not show it: no error
    /// message ever contains the API key (docs/security.md).
    func testServerMessageEchoingTheKeyIsRedacted() async {
        let body = #"{"status":"not_ok","request_id":"x","errors":[{"status":401,"code":"ER0175","message":"Invalid API key: sk-SECRET-123"}]}"#
        let transport = FixtureTransport(routes: ["/v1/news/top-headlines": HTTPResponse(status: 401, body: Data(body.utf8))])
        await assertFailsWithoutKey(APITubeProvider(options: .init(), apiKey: key, transport: transport), "echoed key")
    }

    private func assertFailsWithoutKey(_ provider: HeadlineProvider, _ label: String,
                                       file: StaticString = #filePath, line: UInt = #line) async {
        do {
            let headlines = try await provider.fetchHeadlines(now: fixtureNow)
            XCTFail("\(label): expected an error, got \(headlines.count) headlines", file: file, line: line)
        } catch {
            let message = error.message(provider: provider.displayName, keyVariable: provider.keyVariable)
            XCTAssertFalse(message.contains(key), "\(label): \(message)", file: file, line: line)
            XCTAssertFalse(String(describing: error).contains(key), "\(label): \(error)", file: file, line: line)
            XCTAssertTrue(message.hasPrefix(provider.displayName), "\(label): \(message)", file: file, line: line)
            XCTAssertFalse(message.contains(where: \.isNewline), "\(label): \(message)", file: file, line: line)
            XCTAssertTrue(message.hasSuffix("."), "\(label): \(message)", file: file, line: line)
        }
    }
}

/// Each documented or seen error code gets the advice that fits it: the key setting, waiting or a
/// lower budget, the plan or page-size, or trying later.
final class ErrorAdviceTests: XCTestCase {
    enum Advice: String { case key = "check APITUBE_API_KEY", newsKey = "check NEWSAPI_API_KEY",
                          rate = "wait", plan = "plan", later = "try again later",
                          settings = "check the [source] settings" }

    func testAPITubeCodesGetTheAdviceThatFitsThem() {
        let cases: [(file: String, status: Int, advice: Advice)] = [
            ("error-401-ER0175.json", 401, .key), ("error-401-ER0230.json", 401, .key),
            ("error-401-ER0201.json", 401, .key), ("error-401-ER0202.json", 401, .key),
            ("error-429-ER0203.json", 429, .rate), ("error-429-ER0204.json", 429, .rate),
            ("error-429-ER0429.json", 429, .rate),
            ("error-400-ER0171.json", 400, .plan), ("not-ok-under-200.json", 200, .plan),
            ("error-403-ER0601.json", 403, .plan), ("error-403-ER0603.json", 403, .plan),
            ("error-500-ER0183.json", 500, .later), ("error-500-ER0900.json", 500, .later),
            // The same bodies under HTTP 200 (APITube sometimes does): the code decides.
            ("error-401-ER0201.json", 200, .key), ("error-429-ER0429.json", 200, .rate),
            ("error-500-ER0900.json", 200, .later),
        ]
        for c in cases {
            let response = FixturePaths.response("apitube/" + c.file, status: c.status)
            guard let error = thrownError({ () throws(NewsError) in try APITubeProvider.decode(response, now: fixtureNow) }) else { continue }
            let message = error.message(provider: "APITube", keyVariable: "APITUBE_API_KEY")
            XCTAssertTrue(message.contains(c.advice.rawValue), "\(c.file) under \(c.status): \(message)")
            let code = c.file.split(separator: "-").last.map { String($0.dropLast(5)) } ?? ""
            XCTAssertTrue(c.file.hasPrefix("not-ok") || message.contains(code), "\(c.file): \(message)")
        }
    }

    func testTheCodeDecidesWhenNeitherStatusSaysAnything() {
        // Given not_ok bodies with no status of their own, under HTTP 200: only the code tells
        let cases: [(String, Advice)] = [("ER0201", .key), ("ER0202", .key), ("ER0250", .settings),
                                         ("ER0208", .settings), ("ER0429", .rate),
                                         ("ER0204", .rate), ("ER0171", .plan), ("ER0173", .plan), ("ER0602", .plan),
                                         ("ER0900", .later), ("ER0950", .later), ("ER0183", .later)]
        for (code, advice) in cases {
            let body = #"{"status":"not_ok","request_id":"x","errors":[{"code":"\#(code)","message":"m"}]}"#
            let error = thrownError { () throws(NewsError) in
                try APITubeProvider.decode(HTTPResponse(status: 200, body: Data(body.utf8)), now: fixtureNow)
            }
            let message = error?.message(provider: "APITube", keyVariable: "APITUBE_API_KEY") ?? ""
            XCTAssertTrue(message.contains(advice.rawValue), "\(code): \(message)")
        }
    }

    func testAPITubeRateCodesKeepTheRetryDate() {
        let response = FixturePaths.response("apitube/error-429-ER0429.json", status: 429, headers: ["Retry-After": "30"])
        let error = thrownError { () throws(NewsError) in try APITubeProvider.decode(response, now: fixtureNow) }
        XCTAssertEqual(error?.retryAfter, fixtureNow.addingTimeInterval(30))
    }

    func testNewsAPIPlanLimitsAndHTTP426() {
        let response = FixturePaths.response("newsapi/error-maximumResultsReached.json", status: 426)
        let error = thrownError { () throws(NewsError) in try NewsAPIProvider.decode(response, now: fixtureNow) }
        XCTAssertEqual(error?.message(provider: "NewsAPI", keyVariable: "NEWSAPI_API_KEY"),
                       "NewsAPI refused the request under your plan (HTTP 426) (maximumResultsReached: You have requested too many results. Developer accounts are limited to a max of 100 results. You are trying to request results 100 to 110. Please upgrade to a …): lower [source] page-size or check what your plan allows.")
        // A bare 426 with no body the API would send is the same advice
        let bare = thrownError { () throws(NewsError) in
            try NewsAPIProvider.decode(HTTPResponse(status: 426, body: Data("Upgrade Required".utf8)), now: fixtureNow)
        }
        XCTAssertEqual(bare, .planLimit(status: 426, code: nil, message: nil))
        for (file, status, advice) in [("error-apiKeyInvalid.json", 401, Advice.newsKey), ("error-rateLimited.json", 429, .rate),
                                       ("error-unexpectedError.json", 500, .later)] {
            let response = FixturePaths.response("newsapi/" + file, status: status)
            let message = thrownError { () throws(NewsError) in try NewsAPIProvider.decode(response, now: fixtureNow) }?
                .message(provider: "NewsAPI", keyVariable: "NEWSAPI_API_KEY") ?? ""
            XCTAssertTrue(message.contains(advice.rawValue), "\(file): \(message)")
        }
    }
}
