import Foundation
import HeadlinesCore
import HeadlinesSources
import TestSupport
import XCTest

/// The bad answers Miniflux and Nextcloud News can give, each through the real transport: one
/// sentence naming the service and what to do, at most one request more, no password anywhere.
final class SyncAPIFailureTests: SyncAPITestCase {
    let services: [Config.Provider] = [.miniflux, .nextcloud]

    func name(_ provider: Config.Provider) -> String { "\(provider.displayName) at 127.0.0.1" }

    func requests(_ provider: Config.Provider) -> [LoopbackHTTPServer.RecordedRequest] {
        server.requests.filter { $0.path == Self.unreadPath(provider) }
    }

    func testARefusedCredentialIsTheSignInSentenceAfterOneRequest() async throws {
        let refusals: [Config.Provider: String] = [.miniflux: "sync/miniflux-error-401.json", .nextcloud: "sync/nextcloud-error-401.json"]
        for service in services {
            // Given the service refusing the credential
            server.route(Self.unreadPath(service), .json(FixturePaths.data(refusals[service]!), status: 401))
            let provider = make(service)

            // When the provider fetches
            let error = await fetchError(provider)

            // Then one request, and the sentence names the service, its reason and `headlines login`
            XCTAssertEqual(requests(service).count, 1, "\(service)")
            let reason = service == .miniflux ? "access unauthorized" : "CORS requires basic auth"
            XCTAssertEqual(error, .invalidKey(code: nil, message: reason))
            XCTAssertEqual(error.map(provider.failureMessage),
                           "\(name(service)) refused the sign-in (\(reason)): check [source] username, then store the password again with `headlines login \(service.rawValue)` (or fix password-command or password-file).")
        }
    }

    func testATokenTheHostKeptIsTriedThenThePasswordOnceAndNoMore() async throws {
        for service in services {
            // Given a service that refuses everything
            server.route(Self.unreadPath(service), .json(Data("{}".utf8), status: 401))
            let session = SyncSession(token: "tok-SECRET-old", password: Self.password)

            // When the provider fetches with a token the host kept and a password at hand
            let error = await fetchError(make(service, session: session))

            // Then the token went first, the password once after it, and the token is dropped
            let sent = requests(service).map { $0.header("X-Auth-Token") ?? $0.header("Authorization") }
            let expected = service == .miniflux ? ["tok-SECRET-old", Self.password] : [basic("alice", "tok-SECRET-old"), basic("alice")]
            XCTAssertEqual(sent, expected, "\(service)")
            XCTAssertEqual(error, .invalidKey(code: nil, message: nil))
            XCTAssertNil(session.token)
        }
    }

    func testNoCredentialSendsNothingAndSaysWhereToPutOne() async throws {
        for service in services {
            let provider = make(service, session: SyncSession(token: nil, password: nil, passwordProblem: "the password-file /nowhere is missing"))
            let error = await fetchError(provider)
            XCTAssertEqual(error.map(provider.failureMessage),
                           "\(name(service)) has no password to sign in with (the password-file /nowhere is missing): store it with `headlines login \(service.rawValue)`, or set [source] password-command or password-file.")
            XCTAssertEqual(server.requests.count, 0)
        }
    }

    func testALoginPageWhereJSONWasExpectedSaysSo() async throws {
        let page = FixturePaths.data("sync/login-page.html")
        for service in services {
            server.route(Self.unreadPath(service), .respond(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: page))
            let provider = make(service)
            let error = await fetchError(provider)
            XCTAssertEqual(error, .malformedResponse(detail: "an HTML page, HTTP 200"))
            XCTAssertEqual(error.map(provider.failureMessage),
                           "\(name(service)) sent an HTML page where its API answers JSON (a login page or the wrong address): check [source] base-url.")
        }
    }

    func testAnswersLabelledHTMLAreReadByWhatTheyHold() async throws {
        // Given a proxy that labels every answer text/html
        let html = ["Content-Type": "text/html"]
        server.route(Self.unreadPath(.miniflux), .respond(status: 200, headers: html, body: FixturePaths.data("sync/miniflux-entries.json")))
        server.route(Self.unreadPath(.nextcloud), .respond(status: 200, headers: html, body: Data("Please sign in to continue.".utf8)))

        // Then the API's JSON is still read, and a page of text is a web page, not the API
        let headlines = try await make(.miniflux).fetchHeadlines(now: now)
        XCTAssertEqual(headlines.count, 4)
        let error = await fetchError(make(.nextcloud))
        XCTAssertEqual(error, .malformedResponse(detail: "an HTML page, HTTP 200"))
    }

    func testTruncatedJSONIsNotTheAPIsAnswer() async throws {
        let whole: [Config.Provider: Data] = [.miniflux: FixturePaths.data("sync/miniflux-entries.json"),
                                               .nextcloud: FixturePaths.data("sync/nextcloud-items.json")]
        for service in services {
            // Given an answer cut off after its first kilobyte, with an honest length
            server.route(Self.unreadPath(service), .json(whole[service]!.prefix(1024)))
            let provider = make(service)
            let error = await fetchError(provider)
            XCTAssertEqual(error.map(provider.failureMessage),
                           "\(name(service)) sent a response that is not its API's (truncated or invalid JSON, HTTP 200): check [source] base-url or try again later.")
        }
    }

    func testRateLimitingSaysUntilWhen() async throws {
        for service in services {
            server.route(Self.unreadPath(service), .json(Data("{}".utf8), status: 429, headers: ["Retry-After": "120"]))
            let error = await fetchError(make(service))
            XCTAssertEqual(error, .rateLimited(retryAfter: now.addingTimeInterval(120), code: nil, message: nil), "\(service)")
        }
    }

    func testAServerErrorSaysTryLater() async throws {
        for service in services {
            server.route(Self.unreadPath(service), .respond(status: 503, headers: ["Content-Type": "text/html"], body: Data("<html>down</html>".utf8)))
            let provider = make(service)
            let error = await fetchError(provider)
            XCTAssertEqual(error.map(provider.failureMessage), "\(name(service)) had a server error (HTTP 503): try again later.")
        }
    }

    func testAMarkThatFailsThrowsSoItStaysQueued() async throws {
        let marks: [Config.Provider: String] = [.miniflux: "/v1/entries", .nextcloud: Self.unreadPath(.nextcloud) + "/read/multiple"]
        for service in services {
            server.route(marks[service]!, .respond(status: 502, headers: [:], body: Data()))
            let error = await markError(make(service), ["1"])
            XCTAssertEqual(error, .serverError(status: 502, code: nil, message: nil), "\(service)")
        }
    }

    func testAnEmptyUnreadListIsAnAnswerThatEmptiesTheList() async throws {
        // Everything read elsewhere is the account's real state: the old list must leave the
        // bars, so it is a success with nothing in it, not a failure that keeps the cache.
        let empty: [Config.Provider: Data] = [.miniflux: FixturePaths.data("sync/miniflux-entries-empty.json"),
                                               .nextcloud: FixturePaths.data("sync/nextcloud-items-empty.json")]
        for service in services {
            server.route(Self.unreadPath(service), .json(empty[service]!))
            let headlines = try await make(service).fetchHeadlines(now: now)
            XCTAssertEqual(headlines, [], "\(service)")
        }
        // A null list (what Go writes for a nil slice) is empty too, not a malformed answer
        server.route(Self.unreadPath(.miniflux), .json(Data(#"{"total":0,"entries":null}"#.utf8)))
        let headlines = try await make(.miniflux).fetchHeadlines(now: now)
        XCTAssertEqual(headlines, [])
    }

    func testAForbiddenAnswerSaysCheckAPIAccessWithThePasswordRedacted() async throws {
        for service in services {
            let field = service == .miniflux ? "error_message" : "message"
            server.route(Self.unreadPath(service), .json(Data(#"{"\#(field)":"no user with password \#(Self.password)"}"#.utf8), status: 403))
            let provider = make(service)
            let message = await fetchError(provider).map(provider.failureMessage) ?? ""
            XCTAssertEqual(message, "\(name(service)) refused access (HTTP 403) (no user with password [redacted]): check that the account may use the API.")
            XCTAssertFalse(message.contains(Self.password), message)
        }
    }
}
