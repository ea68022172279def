import Foundation
import HeadlinesCore
import HeadlinesHTTP
import HeadlinesSources
import TestSupport
import XCTest

/// `provider = greader` against a loopback server giving the answers FreshRSS never gives: a
/// login page, a cut body, 429, 503, repeated items, a sign-in that does not help.
final class GReaderBadAnswerTests: LoopbackServerTestCase {
    private let streamPath = "/api/greader.php/reader/api/0/stream/contents/user/-/state/com.google/reading-list"
    private let signInPath = "/api/greader.php/accounts/ClientLogin"
    private let password = "s3cret-Pa55-for-tests"
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func provider(token: String? = "tok-1", password: String? = nil, problem: String? = nil) -> GReaderProvider {
        let account = SyncAccount(provider: .greader, baseURL: url("/api/greader.php"), username: "alice")
        return GReaderProvider(account: account, pageSize: 10, transport: CurlTransport(limits: TransportLimits(timeout: 10)),
                               session: SyncSession(token: token, password: password, passwordProblem: problem))
    }

    private func item(_ id: String, _ title: String, published: Int, link: String = "https://news.example/a") -> String {
        #"{"id":"\#(id)","title":"\#(title)","published":\#(published),"canonical":[{"href":"\#(link)"}],"origin":{"title":"Feed &amp; Co"},"summary":{"content":"<p>Some <b>bold</b> text</p>"}}"#
    }

    func testAnHTMLLoginPageWhereJSONWasExpected() async throws {
        server.route(streamPath, .respond(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"],
                                          body: Data("<!DOCTYPE html>\n<html><body><form action=/login>Sign in</form></body></html>".utf8)))
        let provider = provider()
        let error = await fetchError(provider, now: now)
        XCTAssertEqual(error, .malformedResponse(detail: "an HTML page, HTTP 200"))
        XCTAssertEqual(provider.failureMessage(try XCTUnwrap(error)),
                       "Google Reader API at 127.0.0.1 sent an HTML page where its API answers JSON (a login page or the wrong address): check [source] base-url.")

        // A portal's page that starts with text is told by its type.
        server.route(streamPath, .respond(status: 200, headers: ["Content-Type": "text/html"], body: Data("Please sign in to continue.".utf8)))
        let portal = await fetchError(provider, now: now)
        XCTAssertEqual(portal, .malformedResponse(detail: "an HTML page, HTTP 200"))
    }

    func testATruncatedBody() async throws {
        let whole = #"{"items":[\#(item("tag:1", "One", published: 1_799_000_000))]}"#
        server.route(streamPath, .unframed(status: 200, body: Data(whole.utf8.prefix(whole.utf8.count / 2))))
        let error = await fetchError(provider(), now: now)
        XCTAssertEqual(error, .malformedResponse(detail: "truncated or invalid JSON, HTTP 200"))

        // Cut short of its Content-Length: libcurl sees it.
        server.route(streamPath, .truncated(status: 200, body: Data(whole.utf8.prefix(20)), claimedLength: whole.utf8.count))
        let cut = await fetchError(provider(), now: now)
        XCTAssertEqual(cut, .malformedResponse(detail: "the response was cut short at 20 of \(whole.utf8.count) bytes"))
        XCTAssertTrue(provider().failureMessage(try XCTUnwrap(cut)).hasPrefix("Google Reader API at 127.0.0.1 sent a response that is not its API's"))
    }

    func testTooManyRequestsSaysWhenToComeBack() async throws {
        server.route(streamPath, .respond(status: 429, headers: ["Retry-After": "120"], body: Data("slow down".utf8)))
        let provider = provider()
        let error = await fetchError(provider, now: now)
        XCTAssertEqual(error, .rateLimited(retryAfter: now.addingTimeInterval(120), code: nil, message: nil))
        XCTAssertTrue(provider.failureMessage(try XCTUnwrap(error)).contains("is rate-limiting requests"))
    }

    func testAServerError() async throws {
        server.route(streamPath, .respond(status: 503, headers: [:], body: Data("maintenance".utf8)))
        let error = await fetchError(provider(), now: now)
        XCTAssertEqual(error, .serverError(status: 503, code: nil, message: nil))
    }

    func testItemsThatRepeatAreListedOnceNewestFirstAsPlainText() async throws {
        let items = [item("tag:1", "Older", published: 1_799_000_000), item("tag:2", "AT&amp;T <b>wins</b>", published: 1_799_500_000),
                     item("tag:1", "Older again", published: 1_799_000_000), item("tag:3", "No link", published: 1_799_600_000, link: "javascript:alert(1)")]
        server.route(streamPath, .json(Data(#"{"items":[\#(items.joined(separator: ","))]}"#.utf8)))
        let headlines = try await provider().fetch(now: now)
        XCTAssertEqual(headlines.map(\.id), ["tag:2", "tag:1"])
        XCTAssertEqual(headlines.map(\.title), ["AT&T wins", "Older"])
        XCTAssertEqual(headlines[0].source, "Feed & Co")
        XCTAssertEqual(headlines[0].summary, "Some bold text")
        XCTAssertEqual(headlines[0].publishedAt, Date(timeIntervalSince1970: 1_799_500_000))
        XCTAssertEqual(server.requests.first?.header("Authorization"), "GoogleLogin auth=tok-1")
    }

    func testATokenRefusedAfterASignInIsNotTriedAgain() async throws {
        server.route(streamPath, .respond(status: 401, headers: [:], body: Data("Unauthorized!".utf8)))
        server.route(signInPath, .respond(status: 200, headers: ["Content-Type": "text/plain"], body: Data("SID=x\nLSID=null\nAuth=tok-2\n".utf8)))
        let provider = provider(token: "tok-1", password: password)
        let error = await fetchError(provider, now: now)
        XCTAssertEqual(error, .invalidKey(code: nil, message: nil))
        XCTAssertEqual(server.requests.map { "\($0.method) \($0.path)" }, ["GET \(streamPath)", "POST \(signInPath)", "GET \(streamPath)"])
        XCTAssertEqual(server.requests.map { $0.header("Authorization") ?? "-" }, ["GoogleLogin auth=tok-1", "-", "GoogleLogin auth=tok-2"])
        XCTAssertEqual(provider.session.signIns, 1)
        XCTAssertFalse(server.requests.contains { $0.target.contains(password) }, "the password went into a URL")
    }

    func testARefusedTokenWithoutAPasswordIsARefusalWithoutASignIn() async throws {
        server.route(streamPath, .respond(status: 401, headers: [:], body: Data("Unauthorized!".utf8)))
        let provider = provider(token: "tok-1", password: nil)
        let error = await fetchError(provider, now: now)
        XCTAssertEqual(error, .invalidKey(code: nil, message: nil))
        XCTAssertEqual(server.requests.map(\.path), [streamPath])
        XCTAssertNil(provider.session.token)
    }

    func testNoPasswordAndNoTokenIsAMissingCredentialWithoutARequest() async throws {
        let provider = provider(token: nil, password: nil, problem: "password-command `pass show rss` exited with status 1")
        let error = await fetchError(provider, now: now)
        XCTAssertEqual(error, .missingCredential(detail: "password-command `pass show rss` exited with status 1"))
        XCTAssertEqual(provider.failureMessage(try XCTUnwrap(error)),
                       "Google Reader API at 127.0.0.1 has no password to sign in with (password-command `pass show rss` exited with status 1): store it with `headlines login greader`, or set [source] password-command or password-file.")
        XCTAssertEqual(server.requests.count, 0)
    }

    func testASignInAnsweredWithAnHTMLPage() async throws {
        server.route(signInPath, .respond(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html><body>Log in</body></html>".utf8)))
        let provider = provider(token: nil, password: password)
        let error = await fetchError(provider, now: now)
        XCTAssertEqual(error, .malformedResponse(detail: "no Auth token in the sign-in's answer: an HTML page, HTTP 200"))
        XCTAssertEqual(server.requests.map(\.path), [signInPath])
        XCTAssertTrue(provider.failureMessage(try XCTUnwrap(error)).contains("check [source] base-url"))
    }

    func testMarksTakenBeforeAFailedBatchStayTaken() async throws {
        server.route("/api/greader.php/reader/api/0/token", .respond(status: 200, headers: [:], body: Data("edit-token-1\n".utf8)))
        server.route("/api/greader.php/reader/api/0/edit-tag",
                     .sequence([.respond(status: 200, headers: [:], body: Data("OK".utf8)), .respond(status: 503, headers: [:], body: Data())]))
        let ids = (1...150).map { "tag:google.com,2005:reader/item/\($0)" }
        let taken = try await provider().markRead(ids, now: now)
        XCTAssertEqual(taken, Array(ids.prefix(100)), "the first batch of 100 was taken, the second refused")
        XCTAssertEqual(server.requests.map(\.method), ["GET", "POST", "POST"])
    }
}
