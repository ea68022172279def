import FoundationEssentials
import HeadlinesCore

/// Miniflux through its own API (`base-url` is the Miniflux address, such as
/// https://rss.example.net). One request per fetch: the newest unread entries,
/// `GET /v1/entries?status=unread&order=published_at&direction=desc&limit=PAGE`, each with its
/// feed's title. The credential is an API token in `X-Auth-Token` (Settings, API Keys); with
/// `[source] username` set it is that user's password, sent with HTTP Basic, which Miniflux
/// also accepts. Marks: one `PUT /v1/entries` with `{"entry_ids":[...],"status":"read"}`.
public struct MinifluxProvider: SyncServiceProvider {
    public let connection: SyncConnection
    public init(connection: SyncConnection) { self.connection = connection }

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
        try await api.unread(entriesURL, listKey: "entries", pageSize: pageSize, now: now, headline: Self.headline)
    }

    /// One of `{"total": N, "entries": [...]}`.
    static func headline(_ entry: JSONValue, now: Date) -> Headline? {
        guard let item = PasswordAPI.essentials(entry, dateKey: "published_at", now: now) else { return nil }
        return Headline(id: item.id, title: item.title, url: item.link,
                        source: PasswordAPI.title(entry.value(at: "feed.title")?.text) ?? item.link.host ?? "Miniflux",
                        publishedAt: item.published, summary: FeedText.summary(entry.value(at: "content")?.text),
                        commentsURL: ProviderSupport.link(entry.value(at: "comments_url")?.text))
    }

    /// Miniflux answers 204, having set the status of the ids it has.
    public func markRead(_ ids: [String], now: Date) async throws -> [String] {
        try await api.mark(ids, url: ProviderSupport.url(account.baseURL, path: "v1/entries", items: []), method: "PUT", now: now) {
            PasswordAPI.body(ids: $0, key: "entry_ids", rest: ",\"status\":\"read\"")
        }
    }
}
