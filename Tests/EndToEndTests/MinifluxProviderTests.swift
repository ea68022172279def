import Foundation
import HeadlinesCore
import HeadlinesHTTP
import HeadlinesSources
import TestSupport
import XCTest

/// `provider = miniflux` against a loopback server answering in Miniflux's API shape: what is
/// asked for, what is listed, and the marks as the server receives them.
final class MinifluxProviderTests: SyncAPITestCase {
    func testUnreadEntriesAreOneRequestWithTheTokenListedNewestFirst() async throws {
        // Given Miniflux answering its unread entries
        server.route("/v1/entries", .json(FixturePaths.data("sync/miniflux-entries.json")))

        // When the provider fetches with an API token
        let headlines = try await make(.miniflux).fetchHeadlines(now: now)

        // Then one GET asked for the newest unread entries, the token in X-Auth-Token
        XCTAssertEqual(server.requests.count, 1)
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.path, "/v1/entries")
        XCTAssertEqual(request.queryItems, .pairs([("status", "unread"), ("order", "published_at"), ("direction", "desc"), ("limit", "10")]))
        XCTAssertEqual(request.header("X-Auth-Token"), Self.password)
        XCTAssertNil(request.header("Authorization"))

        // And each entry is a headline with the service's id, its feed's title, link and date
        XCTAssertEqual(headlines.map(\.id), ["40213", "40207", "40198", "40190"])
        XCTAssertEqual(headlines.map(\.title), ["Debian 13.3 released", "Q&A: what the new trait solver changes for you",
                                                "A terminal RSS reader in 400 lines", "[$] A new API for io_uring buffers"])
        XCTAssertEqual(headlines.map(\.source), ["Debian News", "Rust Blog", "Hacker News: Front Page", "LWN.net"])
        XCTAssertEqual(headlines.map(\.publishedAt), [date("2026-12-06T18:04:11Z"), date("2026-12-06T15:30:00.482915Z"),
                                                      date("2026-12-06T14:12:45Z"), date("2026-12-06T03:00:00Z")])
        XCTAssertEqual(headlines[1].url.absoluteString, "https://blog.rust-lang.org/2026/12/06/trait-solver-qa/")
        XCTAssertEqual(headlines.map(\.commentsURL), [nil, nil, URL(string: "https://news.ycombinator.com/item?id=46200001"), nil])
        // The content as plain text: tags and the script gone, entities decoded
        XCTAssertEqual(headlines[1].summary, "We asked the types team about the questions you sent us & more.")
        XCTAssertNil(headlines[2].summary)
    }

    func testAUsernameSendsItsPasswordWithHTTPBasicUnderTheBasePath() async throws {
        // Given Miniflux under a path, and an account with a user name
        server.route("/miniflux/v1/entries", .json(FixturePaths.data("sync/miniflux-entries.json")))
        let account = SyncAccount(provider: .miniflux, baseURL: URL(string: server.baseURL.absoluteString + "/miniflux/")!, username: "alice")
        let provider = MinifluxProvider(account: account, pageSize: 10, transport: CurlTransport(),
                                        session: SyncSession(token: nil, password: Self.password))

        // When it fetches
        _ = try await provider.fetchHeadlines(now: now)

        // Then the password went with HTTP Basic, and no token header
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request.path, "/miniflux/v1/entries")
        XCTAssertEqual(request.header("Authorization"), basic("alice"))
        XCTAssertNil(request.header("X-Auth-Token"))
    }

    func testMarkingReadIsOnePUTOfTheIds() async throws {
        // Given Miniflux taking status changes
        server.route("/v1/entries", .respond(status: 204, headers: [:], body: Data()))

        // When three headlines are marked read, one of them twice
        let taken = try await make(.miniflux).markRead(["40213", "40198", "40213"], now: now)

        // Then one PUT carried their ids and the status, as JSON, with the token
        XCTAssertEqual(server.requests.count, 1)
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request.method, "PUT")
        XCTAssertEqual(request.path, "/v1/entries")
        XCTAssertEqual(request.header("Content-Type"), "application/json")
        XCTAssertEqual(request.header("X-Auth-Token"), Self.password)
        XCTAssertEqual(json(request.body), ["entry_ids": [40213, 40198], "status": "read"] as NSDictionary)
        // And every id counts as taken
        XCTAssertEqual(taken, ["40213", "40198", "40213"])
    }

    func testRepeatedIdsAreKeptOnceAndTheListIsSortedAndCleaned() async throws {
        // Given entries out of order, one repeated, with markup, a script link and a date in 2099
        server.route("/v1/entries", .json(FixturePaths.data("sync/miniflux-entries-awkward.json")))

        // When the provider fetches
        let headlines = try await make(.miniflux).fetchHeadlines(now: now)

        // Then each id once, newest first (2099 read as now), the script link dropped, text plain
        XCTAssertEqual(headlines.map(\.id), ["11", "8", "9", "7"])
        XCTAssertEqual(headlines[0].publishedAt, now)
        XCTAssertEqual(headlines[1].title, "Tom & Jerry return")
        XCTAssertEqual(headlines[1].source, "Feed & B")
        // An entry without its feed is named by its link's host
        XCTAssertEqual(headlines[2].source, "c.example")
    }

    func testTheServerIgnoringTheLimitIsCutToThePageSize() async throws {
        server.route("/v1/entries", .json(FixturePaths.data("sync/miniflux-entries.json")))
        let headlines = try await make(.miniflux, pageSize: 2).fetchHeadlines(now: now)
        XCTAssertEqual(server.requests.first?.queryItems.last, .init("limit", "2"))
        XCTAssertEqual(headlines.map(\.id), ["40213", "40207"])
    }
}
