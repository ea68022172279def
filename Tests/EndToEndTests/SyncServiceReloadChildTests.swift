import Foundation
import HeadlinesCore
import TestSupport
import XCTest

/// `provider = miniflux` and `nextcloud` through the real programs, as the host runs them: the
/// reload child (`headlines-reload`) with the host's token on its standard input (for
/// these two services the credential itself), its report and the cache `list` reads; the read
/// marks the host queued, sent by a marks-only child and checked in the requests the service
/// received.
final class SyncServiceReloadChildTests: EndToEndTestCase {
    static let token = "tok-SECRET-7788-e2e"

    /// One service as the tests drive it.
    struct Service {
        var provider: String
        var apiPath: String
        var username: String
        var unreadPath: String
        var fixture: String
        var markPath: String
        var markMethod: String
        var markBody: NSDictionary
        var newestFirst: [String]
    }

    let miniflux = Service(provider: "miniflux", apiPath: "", username: "", unreadPath: "/v1/entries",
                           fixture: "sync/miniflux-entries.json", markPath: "/v1/entries", markMethod: "PUT",
                           markBody: ["entry_ids": [40213, 40198], "status": "read"],
                           newestFirst: ["40213", "40207", "40198", "40190"])
    let nextcloud = Service(provider: "nextcloud", apiPath: "/index.php/apps/news/api/v1-3", username: "alice",
                            unreadPath: "/index.php/apps/news/api/v1-3/items", fixture: "sync/nextcloud-items.json",
                            markPath: "/index.php/apps/news/api/v1-3/items/read/multiple", markMethod: "POST",
                            markBody: ["itemIds": [40213, 40198]], newestFirst: ["9050", "9047", "9046", "9051"])

    func base(_ service: Service) -> String { server.baseURL.absoluteString + service.apiPath }

    /// `SyncAccount.label`: what the host's token line and the queued marks are kept under.
    func label(_ service: Service) -> String {
        "\(service.provider) \(service.username.isEmpty ? "" : service.username + "@")\(base(service))"
    }

    /// Whether `request` carried the token as the service takes it: alone in X-Auth-Token, or
    /// with the user name through HTTP Basic.
    func carriesToken(_ service: Service, _ request: LoopbackHTTPServer.RecordedRequest?) -> Bool {
        service.username.isEmpty ? request?.header("X-Auth-Token") == Self.token
            : request?.header("Authorization") == "Basic " + Data("\(service.username):\(Self.token)".utf8).base64EncodedString()
    }

    func configure(_ service: Service) throws {
        var text = "[source]\nprovider = \(service.provider)\nbase-url = \(base(service))\n"
        if !service.username.isEmpty { text += "username = \(service.username)\n" }
        try cli.writeConfig(text)
    }

    /// One reload child, the host's token on its standard input, its report decoded.
    func reload(_ service: Service, _ extra: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws -> ReloadReport {
        let run = try cli.reload(extra, input: Data("\(label(service))\t\(Self.token)\n".utf8))
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        XCTAssertFalse(run.stdout.contains(Self.token) || run.stderr.contains(Self.token), "the token was printed", file: file, line: line)
        return try StateJSONDecoder.headlines().decode(ReloadReport.self, from: Data(run.stdout.utf8))
    }

    var marks: ReadMarksStore { ReadMarksStore(path: cli.stateHome.path + "/headlines/read-marks.json") }

    func testMinifluxUnreadEntriesAreListedNewestFirst() throws { try unreadListed(miniflux) }
    func testNextcloudUnreadItemsAreListedNewestFirst() throws { try unreadListed(nextcloud) }
    func testMinifluxMarksQueuedWhileItIsDownReachItOnceAfter() throws { try marksSentOnce(miniflux) }
    func testNextcloudMarksQueuedWhileItIsDownReachItOnceAfter() throws { try marksSentOnce(nextcloud) }
    func testMinifluxRefusingTheTokenMakesTheHostForgetIt() throws { try refusedTokenForgotten(miniflux) }
    func testNextcloudRefusingTheTokenMakesTheHostForgetIt() throws { try refusedTokenForgotten(nextcloud) }

    func unreadListed(_ service: Service) throws {
        // Given the service's unread list
        server.route(service.unreadPath, .json(FixturePaths.data(service.fixture)))
        try configure(service)

        // When the host's reload child runs with the host's token
        let report = try reload(service)

        // Then one request, with the credential, brought the unread items newest first
        XCTAssertNil(report.failure, "\(report.failure.map(\.message) ?? "")")
        XCTAssertEqual(report.requestsSent, 1)
        XCTAssertEqual(server.requests.map(\.path), [service.unreadPath])
        XCTAssertTrue(carriesToken(service, server.requests.first), "\(server.requests.first?.headers ?? [:])")
        XCTAssertEqual(report.headlines.map(\.id), service.newestFirst)

        // And `list` reads them from the cache the child wrote, which holds no token
        XCTAssertEqual(try listJSON().map(\.id), service.newestFirst)
        let cache = try String(contentsOf: cli.cacheFile, encoding: .utf8)
        XCTAssertFalse(cache.contains(Self.token))
    }

    func marksSentOnce(_ service: Service) throws {
        // Given two headlines opened (marks queued by the host) while the service is down
        server.route(service.markPath, .sequence([.respond(status: 503, headers: [:], body: Data()),
                                                  .respond(status: 204, headers: [:], body: Data())]))
        try configure(service)
        try marks.update(now: Date(), warn: { _ in }) { marks in
            for id in ["40213", "40198"] { marks.queue(id, account: label(service)) }
        }

        // When a marks-only child runs: the service answers 503
        let down = try reload(service, ["--marks-only"])

        // Then nothing was taken, the marks stay queued, and nothing was fetched
        XCTAssertEqual(down.marksSent, 0)
        XCTAssertEqual(marks.load(now: Date(), warn: { _ in }).pending, ["40213", "40198"])
        XCTAssertEqual(server.requests.map(\.path), [service.markPath])

        // When the service is back and the next child runs
        let back = try reload(service, ["--marks-only"])

        // Then one request carried both marks, as the API takes them, and the queue is empty
        XCTAssertEqual(back.marksSent, 2)
        XCTAssertEqual(marks.load(now: Date(), warn: { _ in }).pending, [])
        let sent = try XCTUnwrap(server.requests.last)
        XCTAssertEqual(server.requests.count, 2)
        XCTAssertEqual(sent.method, service.markMethod)
        XCTAssertEqual(sent.path, service.markPath)
        XCTAssertEqual(sent.header("Content-Type"), "application/json")
        XCTAssertTrue(carriesToken(service, sent), "\(sent.headers)")
        XCTAssertEqual(try JSONSerialization.jsonObject(with: sent.body) as? NSDictionary, service.markBody)

        // And a third child sends them no more
        XCTAssertEqual(try reload(service, ["--marks-only"]).marksSent, 0)
        XCTAssertEqual(server.requests.count, 2)
    }

    func refusedTokenForgotten(_ service: Service) throws {
        // Given a service that refuses the token the host kept
        server.route(service.unreadPath, .json(Data("{}".utf8), status: 401))
        try configure(service)

        // When the reload child runs with it
        let report = try reload(service)

        // Then one request, the sign-in sentence, and the host is told to forget the token
        XCTAssertEqual(server.requests.count, 1)
        XCTAssertEqual(report.failure?.error, .invalidKey(code: nil, message: nil))
        XCTAssertTrue(report.failure?.message.contains("`headlines login \(service.provider)`") == true, report.failure?.message ?? "")
        XCTAssertEqual(report.syncToken, "")
    }

    func testNoCredentialSendsNothingAndNamesTheLoginCommand() throws {
        for (service, name) in [(miniflux, "Miniflux"), (nextcloud, "Nextcloud News")] {
            // Given the service configured with no credential anywhere (no Secret Service on the
            // sealed-off bus, no password-command or password-file)
            try configure(service)

            // When headlines fetches
            let run = try cli.run(["fetch"])

            // Then it fails with one sentence naming the service and `headlines login`
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
            XCTAssertTrue(run.stderr.hasPrefix("headlines: \(name) at 127.0.0.1 has no password to sign in with ("), run.stderr)
            XCTAssertTrue(run.stderr.contains("store it with `headlines login \(service.provider)`, or set [source] password-command or password-file."), run.stderr)
        }
        // And no request reached the service
        XCTAssertEqual(server.requests.count, 0)
    }
}
