import FoundationEssentials
import HeadlinesCore

/// Miniflux through its own API (`base-url` is the Miniflux address, such as
/// https://rss.example.net). One request per fetch: the newest unread entries,
/// `GET /v1/entries?status=unread&order=published_at&direction=desc&limit=PAGE`, each with its
/// feed's title. The credential is an API token in `X-Auth-Token` (Settings, API Keys); with
/// `[source] username` set it is that user's password, sent with HTTP Basic, which Miniflux
/// also accepts. Marks: one `PUT /v1/entries` with `{"entry_ids":[...],"status":"read"}`.
public struct MinifluxProvider: SyncServiceProvider {
    public let account: SyncAccount
    public let session: SyncSession
    let pageSize: Int
    let transport: HTTPTransport

    public init(account: SyncAccount, pageSize: Int, transport: HTTPTransport, session: SyncSession) {
        self.account = account
        self.pageSize = pageSize
        self.transport = transport
        self.session = session
    }

    public var keyVariable: String? { nil }

    var api: PasswordAPI {
        PasswordAPI(session: session, transport: transport,
                    authorization: account.username.isEmpty ? .tokenHeader("X-Auth-Token") : .basic(username: account.username),
                    errorField: "error_message")
    }

    /// The unread entries' address.
    var entriesURL: URL {
        ProviderSupport.url(account.baseURL, path: "v1/entries", items: [
            URLQueryItem(name: "status", value: "unread"), URLQueryItem(name: "order", value: "published_at"),
            URLQueryItem(name: "direction", value: "desc"), URLQueryItem(name: "limit", value: String(max(1, pageSize))),
        ])
    }

    public func fetch(now: Date) async throws -> [Headline] {
        let url = entriesURL
        let response = try await api.send(now: now) { HTTPRequest(url: url, headers: $0, carriesKey: true) }
        return ProviderSupport.cut(try Self.decode(response, now: now), toPageSize: pageSize)
    }

    /// `{"total": N, "entries": [...]}`, newest first, each entry once.
    static func decode(_ response: HTTPResponse, now: Date) throws(NewsError) -> [Headline] {
        let root = try PasswordAPI.json(response)
        let entries = try PasswordAPI.list(root, at: "entries", status: response.status)
        return ProviderSupport.newestFirstUnique(entries.compactMap { headline($0, now: now) })
    }

    static func headline(_ entry: JSONValue, now: Date) -> Headline? {
        guard let id = PasswordAPI.itemID(entry.value(at: "id")),
              let title = PasswordAPI.title(entry.value(at: "title")?.text),
              let link = ProviderSupport.link(entry.value(at: "url")?.text) else { return nil }
        let date = entry.value(at: "published_at").flatMap(JSONAPIProvider.date(from:))
        return Headline(id: id, title: title, url: link,
                        source: PasswordAPI.title(entry.value(at: "feed.title")?.text) ?? link.host ?? "Miniflux",
                        publishedAt: ProviderSupport.published(date, fetchedAt: now),
                        summary: FeedText.summary(entry.value(at: "content")?.text),
                        commentsURL: ProviderSupport.link(entry.value(at: "comments_url")?.text))
    }

    public func markRead(_ ids: [String], now: Date) async throws -> [String] {
        let numeric = PasswordAPI.numericIDs(ids)
        guard !numeric.isEmpty else { return ids }
        let url = ProviderSupport.url(account.baseURL, path: "v1/entries", items: [])
        let body = PasswordAPI.body(ids: numeric, key: "entry_ids", rest: ",\"status\":\"read\"")
        _ = try await api.send(now: now) { headers in
            HTTPRequest(url: url, method: "PUT", body: body, headers: headers.merging(["Content-Type": "application/json"]) { _, new in new })
        }
        // Miniflux answers 204 and sets the status of the ids it has; any other is not unread there.
        return ids
    }
}
