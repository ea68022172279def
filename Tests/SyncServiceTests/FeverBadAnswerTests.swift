import Foundation
import HeadlinesCore
import HeadlinesHTTP
import HeadlinesSources
import TestSupport
import XCTest

/// `provider = fever` against a loopback server giving the answers FreshRSS never gives: a login
/// page, a cut body, 429, 503, repeated ids, a refused key, and a server that answers one
/// argument per request as Miniflux does.
final class FeverBadAnswerTests: LoopbackServerTestCase {
    private let path = "/fever/"
    private let key = "0123456789abcdef0123456789abcdef"
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func provider(pageSize: Int = 10) -> FeverProvider {
        FeverProvider(account: SyncAccount(provider: .fever, baseURL: url(path), username: "alice"), pageSize: pageSize,
                      transport: CurlTransport(limits: TransportLimits(timeout: 10)), session: SyncSession(token: key, password: nil))
    }

    private func item(_ id: Int, _ title: String, created: Int = 1_799_000_000) -> String {
        #"{"id":"\#(id)","feed_id":1,"title":"\#(title)","html":"<p>Text</p>","url":"https://news.example/\#(id)","is_read":0,"created_on_time":\#(created)}"#
    }

    private func answer(unread: String? = nil, items: [String]? = nil) -> LoopbackHTTPServer.Behaviour {
        var members = [#""api_version":3"#, #""auth":1"#]
        if let unread { members.append(#""unread_item_ids":"\#(unread)""#) }
        if let items { members.append(#""items":[\#(items.joined(separator: ","))]"#) }
        return .json(Data("{\(members.joined(separator: ","))}".utf8))
    }

    func testAnHTMLLoginPageWhereJSONWasExpected() async throws {
        server.route(path, .respond(status: 200, headers: ["Content-Type": "text/html"],
                                    body: Data("\n<!doctype html><html><body><form>Sign in</form></body></html>".utf8)))
        let provider = provider()
        let error = await fetchError(provider, now: now)
        XCTAssertEqual(error, .malformedResponse(detail: "an HTML page, HTTP 200"))
        XCTAssertTrue(provider.failureMessage(try XCTUnwrap(error)).contains("sent an HTML page where its API answers JSON"))
    }

    func testATruncatedBody() async throws {
        let whole = #"{"api_version":3,"auth":1,"unread_item_ids":"1","items":[\#(item(1, "One"))]}"#
        server.route(path, .unframed(status: 200, body: Data(whole.utf8.prefix(40))))
        let error = await fetchError(provider(), now: now)
        XCTAssertEqual(error, .malformedResponse(detail: "truncated or invalid JSON, HTTP 200"))
    }

    func testTooManyRequestsAndAServerError() async throws {
        server.route(path, .sequence([.respond(status: 429, headers: ["Retry-After": "60"], body: Data()),
                                      .respond(status: 503, headers: [:], body: Data("down".utf8))]))
        let first = await fetchError(provider(), now: now)
        XCTAssertEqual(first, .rateLimited(retryAfter: now.addingTimeInterval(60), code: nil, message: nil))
        let second = await fetchError(provider(), now: now)
        XCTAssertEqual(second, .serverError(status: 503, code: nil, message: nil))
    }

    func testARefusedKeyIsARefusedSignIn() async throws {
        // FreshRSS answers auth 0 with 200, Miniflux with 401.
        server.route(path, .sequence([.json(Data(#"{"api_version":3,"auth":0}"#.utf8)),
                                      .json(Data(#"{"api_version":3,"auth":0}"#.utf8), status: 401)]))
        for _ in 0..<2 {
            let provider = provider()
            let error = await fetchError(provider, now: now)
            XCTAssertEqual(error, .invalidKey(code: nil, message: nil))
            XCTAssertNil(provider.session.token, "the refused key is dropped")
        }
        XCTAssertEqual(server.requests.count, 2)
    }

    func testJSONThatIsNotFeversIsNotReadAsAnEmptyAccount() async throws {
        server.route(path, .json(Data(#"{"items":[]}"#.utf8)))
        let error = await fetchError(provider(), now: now)
        XCTAssertEqual(error, .malformedResponse(detail: "JSON without Fever's auth member"))
    }

    func testIdsThatRepeatAreListedOnce() async throws {
        server.route(path, answer(unread: "5,5,5,4,3,2", items: [item(5, "Five", created: 1_799_000_500), item(5, "Five again"),
                                                                 item(4, "Four", created: 1_799_000_400), item(3, "Three", created: 1_799_000_300)]))
        let headlines = try await provider(pageSize: 3).fetch(now: now)
        XCTAssertEqual(headlines.map(\.id), ["5", "4", "3"])
        XCTAssertEqual(headlines.map(\.title), ["Five", "Four", "Three"])
        XCTAssertEqual(server.requests.count, 1)
    }

    func testAServerAnsweringOneArgumentPerRequestGetsTheItemsByID() async throws {
        // Miniflux answers unread_item_ids alone when a request also asks for items.
        server.route(path, .sequence([answer(unread: "7,9,8,3"), answer(items: [item(9, "Nine", created: 1_799_000_900),
                                                                                item(8, "Eight", created: 1_799_000_800),
                                                                                item(7, "Seven", created: 1_799_000_700)])]))
        let headlines = try await provider(pageSize: 3).fetch(now: now)
        XCTAssertEqual(headlines.map(\.title), ["Nine", "Eight", "Seven"])
        let queries = server.requests.map { $0.queryItems.map(\.description) }
        XCTAssertEqual(queries, [["api", "items", "max_id=9223372036854775807", "unread_item_ids"], ["api", "items", "with_ids=9,8,7"]])
        XCTAssertEqual(server.requests.map(\.method), ["POST", "POST"])
        XCTAssertFalse(server.requests.contains { $0.target.contains(key) }, "the key went into a URL")
    }
}
