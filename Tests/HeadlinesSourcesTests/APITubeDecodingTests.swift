import Foundation
import XCTest
@testable import HeadlinesCore
@testable import HeadlinesSources
import TestSupport

final class APITubeDecodingTests: XCTestCase {
    func testFieldListFixtureDecodesToTheTenHeadlines() throws {
        // Given the response APITube sends for fl=id,title,href,published_at,source.domain,image
        let response = FixturePaths.response("apitube/top-headlines-fl.json")
        // When it is decoded
        let headlines = try APITubeProvider.decode(response, now: fixtureNow)
        // Then every field of every headline is as sent, milliseconds included
        XCTAssertEqual(headlines, FixtureHeadlines.apitubeFL)
    }

    func testMillisecondsAreKept() throws {
        let headlines = try APITubeProvider.decode(FixturePaths.response("apitube/top-headlines-fl.json"), now: fixtureNow)
        XCTAssertEqual(headlines[1].publishedAt.timeIntervalSince1970, 1_795_989_490.512, accuracy: 0.0005)
        XCTAssertEqual(headlines[4].publishedAt.timeIntervalSince1970, 1_795_985_999.999, accuracy: 0.0005)
    }

    func testFullFixtureDecodesToTheSameHeadlinesWithSummaries() throws {
        // Given the same ten articles with every field APITube sends without fl
        let data = FixturePaths.data("apitube/top-headlines-full.json")
        XCTAssertGreaterThan(data.count, 150_000, "the full fixture should be the size of a real response")
        let descriptions = try Self.descriptions(in: data)
        XCTAssertEqual(descriptions.count, 10)
        // When it is decoded
        let headlines = try APITubeProvider.decode(HTTPResponse(status: 200, body: data), now: fixtureNow)
        // Then the headlines are the fl ones, with the description as summary
        var expected = FixtureHeadlines.apitubeFL
        for i in expected.indices { expected[i].summary = descriptions[i] }
        XCTAssertEqual(headlines, expected)
    }

    private static func descriptions(in data: Data) throws -> [String] {
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let results = root?["results"] as? [[String: Any]] ?? []
        return results.compactMap { $0["description"] as? String }
    }

    // MARK: errors

    func testAParameterErrorAdvisesTheSettingsNotTheKey() {
        // Given APITube's 400 for an unknown entity in the query, and for an invalid parameter
        // value (codes that share the ER02 prefix with the key errors)
        for code in ["ER0250", "ER0208"] {
            let response = FixturePaths.response("apitube/error-400-\(code).json", status: 400)
            // When it is decoded and worded
            let error = thrownError { () throws(NewsError) in try APITubeProvider.decode(response, now: fixtureNow) }
            let sentence = error?.message(provider: "APITube", keyVariable: "APITUBE_API_KEY") ?? ""
            // Then the advice is about the request, never the key
            XCTAssertFalse(sentence.contains("API key") || sentence.contains("APITUBE_API_KEY"), sentence)
            XCTAssertTrue(sentence.contains(code) && sentence.contains("[source] settings"), sentence)
        }
    }


    func testEachErrorBodyBecomesItsTypedError() {
        let cases: [(file: String, status: Int, expected: NewsError)] = [
            ("error-401-ER0175.json", 401, .invalidKey(code: "ER0175", message: "Invalid API key. Please check your API key and try again.")),
            ("error-401-ER0230.json", 401, .invalidKey(code: "ER0230", message: "Your API key has expired. Please renew your subscription.")),
            ("error-429-ER0203.json", 429, .rateLimited(retryAfter: nil, code: "ER0203", message: "Rate limit exceeded. Too many requests per minute.")),
            ("error-403-ER0601.json", 403, .forbidden(code: "ER0601", message: "Access to this endpoint is not allowed on your plan.")),
            ("error-400-ER0171.json", 400, .planLimit(status: 400, code: "ER0171", message: "The per_page parameter exceeds the maximum allowed by your plan (10).")),
            ("error-500-ER0183.json", 500, .serverError(status: 500, code: "ER0183", message: "Internal server error. Please try again later.")),
            // Parameter errors share the ER02 prefix with the key errors but are not about the key.
            ("error-400-ER0250.json", 400, .badRequest(status: 400, code: "ER0250", message: "Entity sport name 'Football' not found")),
            ("error-400-ER0208.json", 400, .badRequest(status: 400, code: "ER0208", message: "Invalid value for parameter 'language.code'")),
            ("not-ok-under-200.json", 200, .planLimit(status: 400, code: "ER0173", message: "The page parameter exceeds the maximum allowed by your plan.")),
        ]
        for c in cases {
            // Given an APITube error body served with its HTTP status
            let response = FixturePaths.response("apitube/" + c.file, status: c.status)
            // When it is decoded, Then it is exactly the typed error
            let error = thrownError { () throws(NewsError) in try APITubeProvider.decode(response, now: fixtureNow) }
            XCTAssertEqual(error, c.expected, c.file)
        }
    }

    func testRateLimitWithRetryAfterSecondsComesBackThen() {
        let response = FixturePaths.response("apitube/error-429-ER0203.json", status: 429, headers: ["Retry-After": "120"])
        let error = thrownError { () throws(NewsError) in try APITubeProvider.decode(response, now: fixtureNow) }
        XCTAssertEqual(error, .rateLimited(retryAfter: fixtureNow.addingTimeInterval(120), code: "ER0203",
                                           message: "Rate limit exceeded. Too many requests per minute."))
    }

    func testRateLimitWithResetEpochComesBackAtThatDate() {
        let response = FixturePaths.response("apitube/error-429-ER0203.json", status: 429,
                                        headers: ["X-RateLimit-Reset": "1796000000", "X-RateLimit-Remaining": "0"])
        let error = thrownError { () throws(NewsError) in try APITubeProvider.decode(response, now: fixtureNow) }
        XCTAssertEqual(error?.retryAfter, Date(timeIntervalSince1970: 1_796_000_000))
        XCTAssertEqual(error, .rateLimited(retryAfter: Date(timeIntervalSince1970: 1_796_000_000), code: "ER0203",
                                           message: "Rate limit exceeded. Too many requests per minute."))
    }

    func testRateLimitWithHTTPDateRetryAfter() {
        let response = FixturePaths.response("apitube/error-429-ER0203.json", status: 429,
                                        headers: ["Retry-After": "Mon, 30 Nov 2026 00:05:00 GMT"])
        let error = thrownError { () throws(NewsError) in try APITubeProvider.decode(response, now: fixtureNow) }
        XCTAssertEqual(error?.retryAfter, date("2026-11-30T00:05:00Z"))
    }

    func testHTMLErrorPageWithA502IsAServerError() {
        // Given nginx's 502 page in front of the API
        let response = HTTPResponse(status: 502, headers: ["Content-Type": "text/html"], body: FixturePaths.data("apitube/error-page.html"))
        let error = thrownError { () throws(NewsError) in try APITubeProvider.decode(response, now: fixtureNow) }
        // Then it is the server's failure, not ours
        XCTAssertEqual(error, .serverError(status: 502, code: nil, message: nil))
    }

    func testHTMLPageUnder200IsMalformedAndSaysHTML() {
        // Given a captive portal or a wrong base-url answering 200 with HTML
        let response = HTTPResponse(status: 200, headers: ["Content-Type": "text/html"], body: FixturePaths.data("apitube/error-page.html"))
        let error = thrownError { () throws(NewsError) in try APITubeProvider.decode(response, now: fixtureNow) }
        XCTAssertEqual(error, .malformedResponse(detail: "an HTML page, HTTP 200"))
    }

    func testTruncatedBodyIsMalformed() {
        let response = FixturePaths.response("apitube/truncated.json")
        let error = thrownError { () throws(NewsError) in try APITubeProvider.decode(response, now: fixtureNow) }
        XCTAssertEqual(error, .malformedResponse(detail: "truncated or invalid JSON, HTTP 200"))
    }

    func testEmptyBodyIsMalformed() {
        let error = thrownError { () throws(NewsError) in
            try APITubeProvider.decode(HTTPResponse(status: 200, body: Data()), now: fixtureNow)
        }
        XCTAssertEqual(error, .malformedResponse(detail: "an empty body, HTTP 200"))
    }

    // MARK: hostile input

    func testHostileFixtureDecodesToCleanHeadlines() throws {
        // Given a body full of markup, entities, controls, bad dates and bad links
        let response = FixturePaths.response("hostile/apitube-hostile.json")
        // When it is decoded
        let headlines = try APITubeProvider.decode(response, now: fixtureNow)
        // Then entities are decoded, whitespace folded, markup kept as text, bad dates read as now,
        // bad links, empty titles and the repeated id dropped
        let img = url("https://hostile.example/i.jpg")
        // A title longer than the limit is cut at a word, once, here.
        let longTitle = BarText.truncate(Array(repeating: "A very long headline", count: 100).joined(separator: " "),
                                         to: TextCleaning.titleLimit)
        let expected: [Headline] = [
            Headline(id: "9000010", title: "Bad date: yesterday", url: url("https://hostile.example/yesterday"),
                     source: "hostile.example", publishedAt: fixtureNow, imageURL: img),
            Headline(id: "9000011", title: "Bad date: month 13", url: url("https://hostile.example/month13"),
                     source: "hostile.example", publishedAt: fixtureNow, imageURL: img),
            Headline(id: "9000001", title: "Tom & Jerry <b>Tom & Jerry</b> > cat < mouse", url: url("https://hostile.example/markup"),
                     source: "hostile.example", publishedAt: date("2026-11-29T22:00:00.000Z"), imageURL: img),
            Headline(id: "9000002", title: "Fish & Chips 'n' peas: it\u{2019}s \"official\" &bogus; &#0;",
                     url: url("https://hostile.example/entities"), source: "hostile.example",
                     publishedAt: date("2026-11-29T21:00:00.500Z"), imageURL: img),
            Headline(id: "9000003", title: "\u{1F680} Launch day \u{1F389} for the \u{1F469}\u{200D}\u{1F680} crew",
                     url: url("https://hostile.example/emoji"), source: "hostile.example",
                     publishedAt: date("2026-11-29T20:00:00Z"), imageURL: nil),
            Headline(id: "9000004", title: "مرحبا بالعالم — שלום עולם", url: url("https://hostile.example/rtl"),
                     source: "hostile.example", publishedAt: date("2026-11-29T19:00:00Z"), imageURL: img),
            Headline(id: "9000005", title: "Invoice \u{202E}txt.exe\u{202C} and \u{2066}isolated\u{2069} text",
                     url: url("https://hostile.example/bidi"), source: "hostile.example",
                     publishedAt: date("2026-11-29T18:00:00Z"), imageURL: img),
            Headline(id: "9000006", title: "Line one line two tabbed spaced", url: url("https://hostile.example/whitespace"),
                     source: "hostile.example", publishedAt: date("2026-11-29T17:00:00Z"), imageURL: img),
            Headline(id: "9000007", title: longTitle, url: url("https://hostile.example/long"),
                     source: "hostile.example", publishedAt: date("2026-11-29T16:00:00Z"), imageURL: img),
            Headline(id: "9000008", title: "Empty image string", url: url("https://hostile.example/empty-image"),
                     source: "hostile.example", publishedAt: date("2026-11-29T15:00:00Z"), imageURL: nil),
            Headline(id: "9000009", title: "No image key and no source domain", url: url("https://nodomain.example/path"),
                     source: "nodomain.example", publishedAt: date("2026-11-29T14:00:00Z"), imageURL: nil),
            Headline(id: "9000017", title: "String id", url: url("https://hostile.example/string-id"),
                     source: "hostile.example", publishedAt: date("2026-11-29T08:00:00Z"), imageURL: img),
        ]
        XCTAssertEqual(headlines, expected)
        XCTAssertTrue(headlines.allSatisfy(\.hasOpenableURL))
    }
}

/// One bad string in one article costs that article's character, never the page.
final class BadStringTests: XCTestCase {
    private func page(_ title: [UInt8]) -> Data {
        let before = Array(#"{"status":"ok","results":[{"id":1,"title":""#.utf8)
        let after = Array(#"","href":"https://a.example/1"},{"id":2,"title":"Good","href":"https://a.example/2"},{"id":"x","title":7,"href":"https://a.example/3"}]}"#.utf8)
        return Data(before + title + after)
    }

    func testAnInvalidUTF8ByteOrALoneSurrogateKeepsThePage() throws {
        for title in [Array("Caf".utf8) + [0xE9], Array(#"Rocket \ud83d launch"#.utf8), Array(#"Tail \udc00"#.utf8),
                      Array(#"Pair \ud83d\ude80 ok, slash \\ud83d kept"#.utf8)] {
            // Given a page whose first title is broken, beside a good article and one of the wrong shape
            let response = HTTPResponse(status: 200, headers: [:], body: page(title))
            // When it is decoded
            let headlines = try APITubeProvider.decode(response, now: Date(timeIntervalSince1970: 0))
            // Then the page is kept: the broken title with U+FFFD, the good article, not the misshapen one
            XCTAssertEqual(headlines.map(\.id).sorted(), ["1", "2"], String(decoding: title, as: UTF8.self))
        }
        let pair = try APITubeProvider.decode(HTTPResponse(status: 200, headers: [:], body: page(Array(#"Pair \ud83d\ude80 \\ud83d"#.utf8))),
                                              now: Date(timeIntervalSince1970: 0))
        XCTAssertEqual(pair.first { $0.id == "1" }?.title, "Pair \u{1F680} \\ud83d")
        let lone = try APITubeProvider.decode(HTTPResponse(status: 200, headers: [:], body: page(Array(#"A \ud83d B"#.utf8))),
                                              now: Date(timeIntervalSince1970: 0))
        XCTAssertEqual(lone.first { $0.id == "1" }?.title, "A \u{FFFD} B")
    }
}
