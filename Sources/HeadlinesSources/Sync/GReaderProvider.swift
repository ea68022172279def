import FoundationEssentials
import HeadlinesCore

/// The Google Reader API, which FreshRSS, Inoreader, The Old Reader, BazQux and Miniflux speak
/// (Inoreader also asks every client for an app id and key, which this one does not send).
/// `base-url` is the API's root (FreshRSS: `.../api/greader.php`).
/// - Sign-in: `POST accounts/ClientLogin` with the username and password, answered `Auth=TOKEN`;
///   every other request carries `Authorization: GoogleLogin auth=TOKEN`.
/// - Unread: ONE `GET reader/api/0/stream/contents/user/-/state/com.google/reading-list`
///   without the read items (`xt`), the newest `pageSize` (`n`).
/// - Read marks: the edit token (`GET reader/api/0/token`), then `POST reader/api/0/edit-tag`
///   adding the read state to up to `markBatch` items at a time.
public struct GReaderProvider: SyncServiceProvider {
    public let connection: SyncConnection
    public init(connection: SyncConnection) { self.connection = connection }

    public var keyVariable: String? { nil }

    static let readState = "user/-/state/com.google/read"
    /// Items per edit-tag request: the API takes a list, and servers cap a request's size
    /// (FreshRSS reads every `i` of one request in a single query).
    static let markBatch = 100

    public func fetch(now: Date) async throws -> [Headline] {
        let response = try await sendSignedIn(now: now) { token in streamRequest(token: token) }
        return ProviderSupport.cut(try Self.decode(response, now: now), toPageSize: pageSize)
    }

    /// The one request for the unread items. `output=json`: FreshRSS, Inoreader and Miniflux
    /// answer JSON without it, but The Old Reader documents it as the way to ask for JSON.
    func streamRequest(token: String) -> HTTPRequest {
        let url = ProviderSupport.url(account.baseURL, path: "reader/api/0/stream/contents/user/-/state/com.google/reading-list",
                                      items: [URLQueryItem(name: "xt", value: Self.readState), URLQueryItem(name: "n", value: String(pageSize)),
                                              URLQueryItem(name: "output", value: "json")])
        return HTTPRequest(url: url, headers: authorization(token).merging(["Accept": "application/json"]) { a, _ in a }, carriesKey: true)
    }

    public func markRead(_ ids: [String], now: Date) async throws -> [String] {
        let ids = SyncExchange.unique(ids)
        guard !ids.isEmpty else { return [] }
        let tokenURL = ProviderSupport.url(account.baseURL, path: "reader/api/0/token", items: [])
        let answer = try await sendSignedIn(now: now) { token in HTTPRequest(url: tokenURL, headers: authorization(token), carriesKey: true) }
        let editToken = String(decoding: answer.body.prefix(1024), as: UTF8.self).trimmed()
        guard (200...299).contains(answer.status) else {
            throw ProviderSupport.error(status: answer.status, code: nil, message: nil, response: answer, now: now)
        }
        guard !editToken.isEmpty, !editToken.contains(where: { $0.isWhitespace || $0 == "<" }), let token = session.token else {
            throw NewsError.malformedResponse(detail: "no edit token: \(SyncExchange.undecodable(answer))")
        }
        let url = ProviderSupport.url(account.baseURL, path: "reader/api/0/edit-tag", items: [])
        var taken: [String] = []
        for start in stride(from: 0, to: ids.count, by: Self.markBatch) {
            let batch = Array(ids[start..<min(start + Self.markBatch, ids.count)])
            let fields = [("T", editToken), ("a", Self.readState)] + batch.map { ("i", $0) }
            let request = HTTPRequest(url: url, method: "POST", body: SyncExchange.form(fields),
                                      headers: SyncExchange.formHeaders.merging(authorization(token)) { a, _ in a })
            do {
                let response = try await SyncExchange.send(request, through: transport)
                guard (200...299).contains(response.status) else {
                    throw ProviderSupport.error(status: response.status, code: nil, message: nil, response: response, now: now)
                }
            } catch {
                // What was taken stays taken; the rest stays queued for the next reload.
                if taken.isEmpty { throw error }
                return taken
            }
            taken += batch
        }
        return taken
    }

    private func authorization(_ token: String) -> [String: String] { ["Authorization": "GoogleLogin auth=" + token] }

    /// Sends what `make` builds with the session's token. Without a token it signs in first; when
    /// the token is refused (401, it expired) it signs in once more and sends again, once. One
    /// sign-in per process at most (`SyncSession.beginSignIn`): a refused password is never
    /// tried in a loop.
    func sendSignedIn(now: Date, _ make: (String) -> HTTPRequest) async throws(NewsError) -> HTTPResponse {
        var refused = false
        if let token = session.token {
            let response = try await SyncExchange.send(make(token), through: transport)
            guard response.status == 401 else { return response }
            session.dropToken()
            refused = true
        }
        let response = try await SyncExchange.send(make(try await signIn(afterRefusal: refused, now: now)), through: transport)
        // A token just given and already refused: the account may not use the API. No second try.
        if response.status == 401 { throw .invalidKey(code: nil, message: nil) }
        return response
    }

    /// `ClientLogin` with the username and password; the token it gives, kept in the session.
    func signIn(afterRefusal: Bool, now: Date) async throws(NewsError) -> String {
        guard let password = session.password, !password.isEmpty else {
            if afterRefusal { throw .invalidKey(code: nil, message: nil) }
            throw .missingCredential(detail: session.passwordProblem ?? "no password was found")
        }
        guard session.beginSignIn() else { throw .invalidKey(code: nil, message: nil) }
        let url = ProviderSupport.url(account.baseURL, path: "accounts/ClientLogin", items: [])
        let request = HTTPRequest(url: url, method: "POST", body: SyncExchange.form([("Email", account.username), ("Passwd", password)]),
                                  headers: ["Content-Type": "application/x-www-form-urlencoded"])
        let response = try await SyncExchange.send(request, through: transport)
        switch response.status {
        case 200...299: break
        // Inoreader and FreshRSS answer a wrong password 401, some servers 403.
        case 401, 403: throw .invalidKey(code: nil, message: nil)
        default: throw ProviderSupport.error(status: response.status, code: nil, message: nil, response: response, now: now)
        }
        // `SID=...`, `LSID=...`, `Auth=...`, one a line.
        let lines = String(decoding: response.body.prefix(16 * 1024), as: UTF8.self).split(whereSeparator: \.isNewline)
        guard let line = lines.first(where: { $0.hasPrefix("Auth=") }), case let token = line.dropFirst(5).trimmed(), !token.isEmpty,
              !token.contains(where: { $0.isWhitespace }) else {
            throw .malformedResponse(detail: "no Auth token in the sign-in's answer: \(SyncExchange.undecodable(response))")
        }
        session.signedIn(token: token)
        return token
    }

    /// The stream's answer: `items`, each with the long item id, `title`, the link in
    /// `canonical` or `alternate`, `published` (or `crawlTimeMsec`), `origin.title` (the feed as
    /// the service names it) and `summary.content` (HTML).
    public static func decode(_ response: HTTPResponse, now: Date) throws(NewsError) -> [Headline] {
        let root = try SyncExchange.json(response, now: now)
        guard case let .array(items)? = root.value(at: "items") else {
            throw .malformedResponse(detail: "no items list, HTTP \(response.status)")
        }
        return ProviderSupport.newestFirstUnique(items.compactMap { item in
            let date = item.value(at: "published").flatMap(JSONAPIProvider.date(from:))
                ?? item.value(at: "crawlTimeMsec").flatMap(JSONAPIProvider.date(from:))
            return SyncExchange.headline(id: item.value(at: "id")?.text, title: item.value(at: "title")?.text,
                                         link: ProviderSupport.link(item.value(at: "canonical.0.href")?.text)
                                             ?? ProviderSupport.link(item.value(at: "alternate.0.href")?.text),
                                         source: item.value(at: "origin.title")?.text, published: date,
                                         summary: item.value(at: "summary.content")?.text ?? item.value(at: "content.content")?.text, now: now)
        })
    }
}
