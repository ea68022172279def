import Foundation
import XCTest
import TestSupport
@testable import HeadlinesCore

final class ErrorMessageTests: XCTestCase {
    let key = "sk-SECRET-123"

    static let everyCase: [NewsError] = [
        .missingKey(envVariable: "APITUBE_API_KEY"),
        .invalidKey(code: "ER0175", message: "Invalid API key."),
        .invalidKey(code: nil, message: nil),
        .forbidden(code: "ER0601", message: "Not on your plan."),
        .rateLimited(retryAfter: date("2026-11-30T00:02:00Z"), code: "ER0203", message: "Slow down."),
        .rateLimited(retryAfter: nil, code: nil, message: nil),
        .serverError(status: 503, code: nil, message: "line one\nline two\r\nline three"),
        .badRequest(status: 400, code: "ER0171", message: ""),
        .planLimit(status: 426, code: "maximumResultsReached", message: "Developer accounts are limited to 100 results."),
        .malformedResponse(detail: "an HTML page, HTTP 200"),
        .responseTooLarge(limit: 4 * 1024 * 1024),
        .timedOut(seconds: 30),
        .unreachable(detail: "connection refused"),
        .insecureTransport(host: "example.com"),
        .noHeadlines(setting: "[source] feeds"),
    ]

    func testEveryCaseIsOneLineSentenceNamingTheProvider() {
        for error in Self.everyCase {
            for provider in ["APITube", "NewsAPI"] {
                let message = error.message(provider: provider, keyVariable: "APITUBE_API_KEY")
                XCTAssertFalse(message.contains(where: \.isNewline), message)
                XCTAssertTrue(message.hasSuffix("."), message)
                XCTAssertTrue(message.contains(provider), message)
                XCTAssertFalse(message.contains(key), message)
                XCTAssertEqual(message, message.trimmingCharacters(in: .whitespaces), message)
            }
        }
    }

    func testExactWording() {
        XCTAssertEqual(NewsError.invalidKey(code: "ER0175", message: "Invalid API key.")
                        .message(provider: "APITube", keyVariable: "APITUBE_API_KEY"),
                       "APITube rejected the API key (ER0175: Invalid API key.): check APITUBE_API_KEY or api-key-file.")
        XCTAssertEqual(NewsError.invalidKey(code: nil, message: nil).message(provider: "NewsAPI"),
                       "NewsAPI rejected the API key: check the API key.")
        let zone = TimeZoneOverride("CET-1")
        defer { zone.restore() }
        XCTAssertEqual(NewsError.rateLimited(retryAfter: date("2026-11-30T00:02:00Z"), code: "ER0203", message: "Slow down.")
                        .message(provider: "APITube"),
                       "APITube is rate-limiting requests (ER0203: Slow down.): wait until 2026-11-30 01:02:00 +0100 or lower [refresh] daily-budget.")
        XCTAssertEqual(NewsError.serverError(status: 503, code: nil, message: "line one\nline two").message(provider: "APITube"),
                       "APITube had a server error (HTTP 503) (line one line two): try again later.")
        XCTAssertEqual(NewsError.missingKey(envVariable: "NEWSAPI_API_KEY").message(provider: "NewsAPI"),
                       "NewsAPI needs an API key: set NEWSAPI_API_KEY or [source] api-key-file, or use a keyless feed provider.")
    }

    func testLongServerMessageIsClipped() {
        let long = String(repeating: "word ", count: 100)
        let message = NewsError.forbidden(code: "ER0602", message: long).message(provider: "APITube")
        XCTAssertTrue(message.contains("…"))
        XCTAssertLessThan(message.count, 260)
    }
}
