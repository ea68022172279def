import Foundation
import HeadlinesCore
import HeadlinesSources
import TestSupport
import XCTest

/// `provider = nextcloud` against a loopback server answering in the News app's API v1-3
/// shape: what is asked for, what is listed, and the marks as the server receives them.
final class NextcloudNewsProviderTests: SyncAPITestCase {
    let items = "/index.php/apps/news/api/v1-3/items"

    func testUnreadItemsAreOneBasicAuthRequestListedNewestFirst() async throws {
        // Given the News app answering its unread items, highest id first as it sorts them
        server.route(items, .json(FixturePaths.data("sync/nextcloud-items.json")))

        // When the provider fetches with alice's app password
        let headlines = try await make(.nextcloud).fetchHeadlines(now: now)

        // Then one GET asked for the unread items of every feed, with HTTP Basic, and nothing
        // else (no feeds request)
        XCTAssertEqual(server.requests.count, 1)
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.path, items)
        XCTAssertEqual(request.queryItems, .pairs([("type", "3"), ("getRead", "false"), ("batchSize", "10"), ("offset", "0"),
                                                   ("id", "0"), ("oldestFirst", "false")]))
        XCTAssertEqual(request.header("Authorization"), basic("alice"))

        // And the items are headlines newest first by their date, not by id, named by their host
        XCTAssertEqual(headlines.map(\.id), ["9050", "9047", "9046", "9051"])
        XCTAssertEqual(headlines.map(\.title), ["Debian 13.3 released", "Q&A: what the new trait solver changes for you",
                                                "A terminal RSS reader in 400 lines", "[$] A new API for io_uring buffers"])
        XCTAssertEqual(headlines.map(\.publishedAt), [date("2026-12-06T18:04:11Z"), date("2026-12-06T15:30:00Z"),
                                                      date("2026-12-06T14:12:45Z"), date("2026-12-06T03:00:00Z")])
        XCTAssertEqual(headlines.map(\.source), ["www.debian.org", "blog.rust-lang.org", "example.org", "lwn.net"])
        XCTAssertEqual(headlines[0].url.absoluteString, "https://www.debian.org/News/2026/20261206")
        XCTAssertEqual(headlines[1].summary, "We asked the types team about the questions you sent us & more.")
        XCTAssertNil(headlines[2].summary)
    }

    func testMarkingReadIsOnePOSTOfTheItemIds() async throws {
        // Given the News app taking marks
        server.route(items + "/read/multiple", .respond(status: 200, headers: ["Content-Type": "application/json"], body: Data("[]".utf8)))

        // When two headlines are marked read, and an id that cannot be the app's
        let taken = try await make(.nextcloud).markRead(["9050", "9046", "tag:elsewhere"], now: now)

        // Then one POST carried the two item ids as JSON, with HTTP Basic
        XCTAssertEqual(server.requests.count, 1)
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.path, items + "/read/multiple")
        XCTAssertEqual(request.header("Content-Type"), "application/json")
        XCTAssertEqual(request.header("Authorization"), basic("alice"))
        XCTAssertEqual(json(request.body), ["itemIds": [9050, 9046]] as NSDictionary)
        // And all three count as taken: the other cannot be unread there
        XCTAssertEqual(taken, ["9050", "9046", "tag:elsewhere"])
    }

    func testMarksWithNoIdOfTheAppSendNothing() async throws {
        let taken = try await make(.nextcloud).markRead(["tag:elsewhere"], now: now)
        XCTAssertEqual(taken, ["tag:elsewhere"])
        XCTAssertEqual(server.requests.count, 0)
    }

    func testRepeatedIdsAreKeptOnceAndTheListIsSortedAndCleaned() async throws {
        // Given items with no date, a repeated id, markup, a script link and no title
        server.route(items, .json(FixturePaths.data("sync/nextcloud-items-awkward.json")))

        // When the provider fetches
        let headlines = try await make(.nextcloud).fetchHeadlines(now: now)

        // Then each id once, the undated one as now, the unusable ones dropped, text plain
        XCTAssertEqual(headlines.map(\.id), ["9", "8", "7"])
        XCTAssertEqual(headlines[0].publishedAt, now)
        XCTAssertEqual(headlines[1].title, "Tom & Jerry return")
        XCTAssertEqual(headlines[1].summary, "Cartoon & more")
    }
}
