import Foundation
import HeadlinesCore
import HeadlinesHTTP
import HeadlinesSources
import TestSupport
import XCTest

/// A sync service's provider on the real libcurl transport, against a loopback server that
/// answers in the service's API shape (Fixtures/sync). The credential goes in through a
/// `SyncSession`, as the reload child makes one (SyncServiceReloadChildTests runs the child).
class SyncAPITestCase: LoopbackServerTestCase {
    /// Distinctive, so a leak is found wherever it lands.
    static let password = "pw-SECRET-5150-sync"
    let now = date("2026-12-07T00:00:00Z")

    /// The service's API path on the loopback server: Miniflux at its root, Nextcloud News under
    /// its app's route, as `base-url` names them.
    static func apiPath(_ provider: Config.Provider) -> String {
        provider == .nextcloud ? "/index.php/apps/news/api/v1-3" : ""
    }

    /// Where `entries`/`items` and the marks go for `provider`.
    static func unreadPath(_ provider: Config.Provider) -> String {
        apiPath(provider) + (provider == .nextcloud ? "/items" : "/v1/entries")
    }

    func make(_ provider: Config.Provider, username: String? = nil, pageSize: Int = 10,
              session: SyncSession = SyncSession(token: nil, password: SyncAPITestCase.password)) -> any SyncServiceProvider {
        let base = URL(string: server.baseURL.absoluteString + Self.apiPath(provider))!
        let account = SyncAccount(provider: provider, baseURL: base, username: username ?? (provider == .nextcloud ? "alice" : ""))
        return SyncProviders.make(account: account, pageSize: pageSize, transport: CurlTransport(), session: session)
    }

    /// The error a fetch ends in (through `fetchHeadlines`, as a refresh calls it), or a failure.
    func fetchError(_ provider: any SyncServiceProvider, file: StaticString = #filePath, line: UInt = #line) async -> NewsError? {
        do {
            let headlines = try await provider.fetchHeadlines(now: now)
            XCTFail("expected an error, got \(headlines.count) headlines", file: file, line: line)
        } catch {
            return error
        }
        return nil
    }

    /// The error `markRead` ends in, or a failure.
    func markError(_ provider: any SyncServiceProvider, _ ids: [String], file: StaticString = #filePath, line: UInt = #line) async -> NewsError? {
        do {
            let taken = try await provider.markRead(ids, now: now)
            XCTFail("expected an error, got \(taken)", file: file, line: line)
        } catch let error as NewsError {
            return error
        } catch {
            XCTFail("threw a non-NewsError: \(error)", file: file, line: line)
        }
        return nil
    }

    /// `Basic base64(user:password)`, as the server must receive it.
    func basic(_ user: String, _ password: String = SyncAPITestCase.password) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// A request body as JSON, for comparing with what the API documents.
    func json(_ body: Data, file: StaticString = #filePath, line: UInt = #line) -> NSDictionary? {
        let object = try? JSONSerialization.jsonObject(with: body)
        XCTAssertNotNil(object, "not JSON: \(String(decoding: body, as: UTF8.self))", file: file, line: line)
        return object as? NSDictionary
    }
}
