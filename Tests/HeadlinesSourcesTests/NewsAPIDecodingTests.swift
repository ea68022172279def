import Foundation
import XCTest
@testable import HeadlinesCore
@testable import HeadlinesSources
import TestSupport

final class NewsAPIDecodingTests: XCTestCase {
    func testTopHeadlinesDecodeWithRemovedDroppedAndNullsTolerated() throws {
        // Given NewsAPI's answer with null fields and two "[Removed]" placeholders
        let response = FixturePaths.response("newsapi/top-headlines.json")
        // When it is decoded
        let headlines = try NewsAPIProvider.decode(response, now: fixtureNow)
        // Then the eight real articles remain, keyed on their URL, newest first, without the
        // " - Outlet" suffix that repeats their own source
        func h(_ link: String, _ title: String, _ source: String, _ published: String,
               image: String? = nil, summary: String? = nil) -> Headline {
            Headline(id: link, title: title, url: url(link), source: source, publishedAt: date(published),
                     imageURL: image.map(url), summary: summary)
        }
        let expected = [
            h("https://www.reuters.com/markets/central-bank-holds-rates-2026-11-29/",
              "Central bank holds rates steady as inflation cools", "Reuters", "2026-11-29T22:20:23Z",
              image: "https://www.reuters.com/resizer/rates.jpg",
              summary: "The central bank left its main rate unchanged for a third meeting."),
            h("https://www.bbc.co.uk/news/uk-70112288", "Storm brings record rainfall to coastal towns",
              "BBC News", "2026-11-29T21:58:10Z"),
            h("https://www.theverge.com/2026/11/29/chipmaker-2nm", "Chipmaker unveils 2 nm processor for laptops",
              "The Verge", "2026-11-29T21:40:00Z", image: "https://cdn.vox-cdn.com/chip.jpg",
              summary: "The first 2 nm laptop chip promises longer battery life."),
            h("https://www.theguardian.com/football/2026/nov/29/derby-report", "Football: late goal settles the derby",
              "The Guardian", "2026-11-29T21:15:42Z", image: "https://i.guim.co.uk/img/derby.jpg",
              summary: "A goal in the ninety-third minute decided a tense derby."),
            h("https://www.nature.com/articles/d41586-026-03741-2", "Scientists map the deepest ocean trench in 3D",
              "Nature.com", "2026-11-29T20:59:59Z"),
            h("https://apnews.com/article/cycle-lanes-city-council", "City council approves new cycle lanes",
              "Associated Press", "2026-11-29T20:30:00Z", image: "https://dims.apnews.com/cycle.jpg",
              summary: "The council voted to build forty kilometres of protected cycle lanes."),
            h("https://www.cnbc.com/2026/11/29/airline-outage.html", "Airline cancels flights after software outage",
              "CNBC", "2026-11-29T20:05:17Z", summary: "Hundreds of flights were cancelled after a faulty update."),
            h("https://www.nytimes.com/2026/11/29/arts/museum-returns.html",
              "Museum returns artefacts to their country of origin", "The New York Times",
              "2026-11-29T19:48:03Z", image: "https://static01.nyt.com/museum.jpg",
              summary: "The museum handed back a collection of bronzes."),
        ]
        XCTAssertEqual(headlines, expected)
        XCTAssertFalse(headlines.contains { $0.url.host == "removed.com" })
    }

    func testEachErrorBodyBecomesItsTypedError() throws {
        let cases: [(file: String, status: Int, expected: (String) -> NewsError)] = [
            ("error-apiKeyInvalid.json", 401, { .invalidKey(code: "apiKeyInvalid", message: $0) }),
            ("error-apiKeyMissing.json", 401, { .invalidKey(code: "apiKeyMissing", message: $0) }),
            ("error-rateLimited.json", 429, { .rateLimited(retryAfter: nil, code: "rateLimited", message: $0) }),
            ("error-parameterInvalid.json", 400, { .badRequest(status: 400, code: "parameterInvalid", message: $0) }),
            ("error-unexpectedError.json", 500, { .serverError(status: 500, code: "unexpectedError", message: $0) }),
            ("error-maximumResultsReached.json", 426, { .planLimit(status: 426, code: "maximumResultsReached", message: $0) }),
        ]
        for c in cases {
            // Given a NewsAPI error body served with its HTTP status
            let response = FixturePaths.response("newsapi/" + c.file, status: c.status)
            let message = try Self.message(in: response.body)
            // When it is decoded, Then it is exactly the typed error carrying the server's words
            let error = thrownError { () throws(NewsError) in try NewsAPIProvider.decode(response, now: fixtureNow) }
            XCTAssertEqual(error, c.expected(message), c.file)
        }
    }

    func testErrorStatusUnderHTTP200IsStillAnError() throws {
        let response = FixturePaths.response("newsapi/error-apiKeyInvalid.json", status: 200)
        let error = thrownError { () throws(NewsError) in try NewsAPIProvider.decode(response, now: fixtureNow) }
        XCTAssertEqual(error, .invalidKey(code: "apiKeyInvalid", message: try Self.message(in: response.body)))
    }

    func testRateLimitedWithRetryAfter() throws {
        let response = FixturePaths.response("newsapi/error-rateLimited.json", status: 429, headers: ["retry-after": "3600"])
        let error = thrownError { () throws(NewsError) in try NewsAPIProvider.decode(response, now: fixtureNow) }
        XCTAssertEqual(error, .rateLimited(retryAfter: fixtureNow.addingTimeInterval(3600), code: "rateLimited",
                                           message: try Self.message(in: response.body)))
    }

    func testHTMLAndTruncatedBodiesAreMalformed() {
        let html = HTTPResponse(status: 200, body: FixturePaths.data("apitube/error-page.html"))
        XCTAssertEqual(thrownError { () throws(NewsError) in try NewsAPIProvider.decode(html, now: fixtureNow) },
                       .malformedResponse(detail: "an HTML page, HTTP 200"))
        let full = FixturePaths.data("newsapi/top-headlines.json")
        let truncated = HTTPResponse(status: 200, body: full.prefix(full.count / 2))
        XCTAssertEqual(thrownError { () throws(NewsError) in try NewsAPIProvider.decode(truncated, now: fixtureNow) },
                       .malformedResponse(detail: "truncated or invalid JSON, HTTP 200"))
    }

    func testHostileFixtureDecodesToCleanHeadlines() throws {
        // Given NewsAPI articles with null titles, entities, bad dates and bad links
        let response = FixturePaths.response("hostile/newsapi-hostile.json")
        // When it is decoded
        let headlines = try NewsAPIProvider.decode(response, now: fixtureNow)
        // Then
        let expected = [
            Headline(id: "https://hostile.example/bad-date", title: "Bad date", url: url("https://hostile.example/bad-date"),
                     source: "Hostile", publishedAt: fixtureNow, imageURL: nil, summary: "Multi line summary"),
            Headline(id: "https://hostile.example/markets", title: "Markets & more \u{2014} <live>",
                     url: url("https://hostile.example/markets"), source: "Fox & Friends",
                     publishedAt: date("2026-11-29T22:00:00Z")),
            Headline(id: "https://nosource.example/a", title: "No source name", url: url("https://nosource.example/a"),
                     source: "nosource.example", publishedAt: date("2026-11-29T21:00:00Z"), imageURL: nil, summary: nil),
            Headline(id: "https://hostile.example/bidi", title: "Invoice \u{202E}txt.exe\u{202C} second line",
                     url: url("https://hostile.example/bidi"), source: "Hostile",
                     publishedAt: date("2026-11-29T19:00:00.250Z"), imageURL: url("https://hostile.example/i.jpg")),
            Headline(id: "https://emptyname.example/b", title: "Empty source name", url: url("https://emptyname.example/b"),
                     source: "emptyname.example", publishedAt: date("2026-11-29T17:00:00Z")),
        ]
        XCTAssertEqual(headlines, expected)
    }

    private static func message(in body: Data) throws -> String {
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        return try XCTUnwrap(object?["message"] as? String)
    }
}
