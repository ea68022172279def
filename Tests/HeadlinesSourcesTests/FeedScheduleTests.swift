import Foundation
import XCTest
@testable import HeadlinesCore
@testable import HeadlinesSources

/// A feed's next fetch: the latest of its HTTP caching, its own ttl or sy:updatePeriod, a 429 or
/// 503's Retry-After and its configured interval, each at most a day from now.
final class FeedScheduleTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private let day: TimeInterval = 86400

    private func next(_ status: Int? = 200, _ headers: [String: String] = [:], period: FeedPeriod? = nil,
                      interval: TimeInterval? = nil) -> FeedSchedule.Next? {
        FeedSchedule.next(status: status, headers: headers, period: period, interval: interval, now: now)
    }

    private func at(_ seconds: TimeInterval, _ reason: FeedSchedule.Reason) -> FeedSchedule.Next {
        FeedSchedule.Next(at: now.addingTimeInterval(seconds), reason: reason)
    }

    func testNoHintMeansTheNextReload() {
        XCTAssertNil(next())
        XCTAssertNil(next(304, ["etag": "\"a\""]))
    }

    func testMaxAgeMinusAge() {
        XCTAssertEqual(next(200, ["cache-control": "public, max-age=3600"]), at(3600, .maxAge))
        XCTAssertEqual(next(304, ["cache-control": "max-age=3600", "age": "600"]), at(3000, .maxAge))
        XCTAssertEqual(next(200, ["cache-control": "Max-Age=\"120\""]), at(120, .maxAge))
        XCTAssertNil(next(200, ["cache-control": "max-age=60", "age": "90"]), "an answer older than its max-age is stale")
    }

    func testNoCacheNoStoreAndMaxAgeZeroMeanTheNextReload() {
        XCTAssertNil(next(200, ["cache-control": "no-cache, max-age=3600"]))
        XCTAssertNil(next(200, ["cache-control": "no-store"]))
        XCTAssertNil(next(200, ["cache-control": "max-age=0", "expires": "Fri, 15 Jan 2027 08:00:00 GMT"]))
        XCTAssertNil(next(200, ["cache-control": "no-cache", "expires": "Fri, 15 Jan 2027 08:00:00 GMT"]))
    }

    func testExpiresMinusDateOrNow() {
        // `now` is 2027-01-15 08:00:00 UTC.
        let sent = "Fri, 15 Jan 2027 07:00:00 GMT"
        XCTAssertEqual(next(200, ["expires": "Fri, 15 Jan 2027 07:30:00 GMT", "date": sent]), at(1800, .expires),
                       "Expires counts from the answer's Date, whatever this machine's clock says")
        XCTAssertEqual(next(200, ["expires": "Fri, 15 Jan 2027 09:00:00 GMT"]), at(3600, .expires))
        XCTAssertNil(next(200, ["expires": "0"]))
        XCTAssertNil(next(200, ["expires": "Fri, 15 Jan 2027 07:00:00 GMT"]))
    }

    func testTheFeedsOwnPeriod() {
        XCTAssertEqual(next(200, period: FeedPeriod(seconds: 3600, reason: .ttl)), at(3600, .ttl))
        XCTAssertEqual(next(304, period: FeedPeriod(seconds: 7200, reason: .updatePeriod)), at(7200, .updatePeriod))
    }

    func testRetryAfterInSecondsOrAsADateOnlyFor429And503() {
        XCTAssertEqual(next(429, ["retry-after": "3600"]), at(3600, .retryAfter))
        XCTAssertEqual(next(503, ["retry-after": "Fri, 15 Jan 2027 10:00:00 GMT"]), at(7200, .retryAfter))
        XCTAssertNil(next(500, ["retry-after": "3600"]))
        XCTAssertNil(next(200, ["retry-after": "3600"]))
    }

    func testAFailureCountsOnlyRetryAfterAndTheInterval() {
        XCTAssertNil(next(404, ["cache-control": "max-age=3600"], period: FeedPeriod(seconds: 3600, reason: .ttl)))
        XCTAssertNil(next(nil, ["cache-control": "max-age=3600"]))
        XCTAssertEqual(next(nil, interval: 600), at(600, .interval))
    }

    func testTheLatestWins() {
        let headers = ["cache-control": "max-age=600"]
        XCTAssertEqual(next(200, headers, period: FeedPeriod(seconds: 3600, reason: .ttl), interval: 1800), at(3600, .ttl))
        XCTAssertEqual(next(200, headers, period: FeedPeriod(seconds: 60, reason: .ttl), interval: 1800), at(1800, .interval))
        XCTAssertEqual(next(429, ["retry-after": "7200"], interval: 1800), at(7200, .retryAfter))
    }

    func testEachSourceIsCappedAtADay() {
        XCTAssertEqual(next(200, ["cache-control": "max-age=31536000"]), at(day, .maxAge))
        XCTAssertEqual(next(200, ["expires": "Thu, 01 Jan 2037 00:00:00 GMT"]), at(day, .expires))
        XCTAssertEqual(next(429, ["retry-after": "999999999"]), at(day, .retryAfter))
        XCTAssertEqual(next(503, ["retry-after": "Thu, 01 Jan 2037 00:00:00 GMT"]), at(day, .retryAfter))
        XCTAssertEqual(next(200, period: FeedPeriod(seconds: 365 * day, reason: .updatePeriod)), at(day, .updatePeriod))
    }

    func testTheFeedReadersReadTtlAndTheSyndicationModule() throws {
        func period(_ xml: String) throws -> FeedPeriod? {
            try FeedParser.parse(Data(xml.utf8), baseURL: URL(string: "https://example.com/feed")).period
        }
        let item = "<item><title>One</title><link>https://example.com/1</link></item>"
        XCTAssertEqual(try period("<rss version=\"2.0\"><channel><title>T</title><ttl>60</ttl>\(item)</channel></rss>"),
                       FeedPeriod(seconds: 3600, reason: .ttl))
        let sy = "xmlns:sy=\"http://purl.org/rss/1.0/modules/syndication/\""
        XCTAssertEqual(try period("<rss version=\"2.0\" \(sy)><channel><sy:updatePeriod>daily</sy:updatePeriod><sy:updateFrequency>4</sy:updateFrequency>\(item)</channel></rss>"),
                       FeedPeriod(seconds: 21600, reason: .updatePeriod))
        let rdf = """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" \(sy)>
            <channel rdf:about="https://example.com/"><title>T</title><sy:updatePeriod>hourly</sy:updatePeriod></channel>
            <item rdf:about="https://example.com/1"><title>One</title><link>https://example.com/1</link></item></rdf:RDF>
            """
        XCTAssertEqual(try period(rdf), FeedPeriod(seconds: 3600, reason: .updatePeriod))
        // Atom feeds borrow the syndication module too (WordPress and Blogger write it on the feed).
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom" \(sy)><title>T</title><sy:updatePeriod>weekly</sy:updatePeriod>
            <sy:updateFrequency>7</sy:updateFrequency><entry><title>One</title><id>https://example.com/1</id>
            <link href="https://example.com/1"/><updated>2026-01-01T00:00:00Z</updated></entry></feed>
            """
        XCTAssertEqual(try period(atom), FeedPeriod(seconds: 86400, reason: .updatePeriod))
        XCTAssertNil(try period("<rss version=\"2.0\"><channel><ttl>soon</ttl>\(item)</channel></rss>"))
        XCTAssertNil(try period("<rss version=\"2.0\" \(sy)><channel><sy:updatePeriod>hourly</sy:updatePeriod><sy:updateFrequency>0</sy:updateFrequency>\(item)</channel></rss>"))
    }
}
