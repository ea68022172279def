import FoundationEssentials
import HeadlinesCore

/// Nextcloud News through its API v1-3 (`base-url` such as
/// https://cloud.example.net/index.php/apps/news/api/v1-3), HTTP Basic with the user name and an
/// app password (Settings, Security) on every request. One request per fetch: the newest unread
/// items, `GET items?type=3&getRead=false&batchSize=PAGE&offset=0&id=0&oldestFirst=false`.
/// Marks: one `POST items/read/multiple` with `{"itemIds":[...]}`.
///
/// Items name their feed only by `feedId`; the titles are in `GET feeds`, a second request.
/// Each reload runs in a new process with nowhere to keep a feedId-to-title map, so fetching
/// them "only when an unknown feedId appears" would still mean every reload, doubling what an
/// unchanged account costs. A headline's source is therefore its link's host, as for the other
/// one-stream providers, and a refresh stays one request.
public struct NextcloudNewsProvider: SyncServiceProvider {
    public let connection: SyncConnection
    public init(connection: SyncConnection) { self.connection = connection }

    public var keyVariable: String? { nil }

    var api: PasswordAPI {
        PasswordAPI(session: session, transport: transport, authorization: .basic(username: account.username), errorField: "message")
    }

    /// The unread items' address. `type=3` is every feed; with `getRead=false` the app reads it as
    /// its unread list. `oldestFirst=false` gives the highest ids, the last fetched, first.
    var itemsURL: URL {
        ProviderSupport.url(account.baseURL, path: "items", items: [
            URLQueryItem(name: "type", value: "3"), URLQueryItem(name: "getRead", value: "false"),
            URLQueryItem(name: "batchSize", value: String(max(1, pageSize))), URLQueryItem(name: "offset", value: "0"),
            URLQueryItem(name: "id", value: "0"), URLQueryItem(name: "oldestFirst", value: "false"),
        ])
    }

    public func fetch(now: Date) async throws -> [Headline] {
        try await api.unread(itemsURL, listKey: "items", pageSize: pageSize, now: now, headline: Self.headline)
    }

    /// One of `{"items": [...]}`.
    static func headline(_ json: JSONValue, now: Date) -> Headline? {
        guard let item = PasswordAPI.essentials(json, dateKey: "pubDate", now: now) else { return nil }
        return Headline(id: item.id, title: item.title, url: item.link, source: item.link.host ?? "Nextcloud News",
                        publishedAt: item.published, summary: FeedText.summary(json.value(at: "body")?.text))
    }

    public func markRead(_ ids: [String], now: Date) async throws -> [String] {
        try await api.mark(ids, url: ProviderSupport.url(account.baseURL, path: "items/read/multiple", items: []), method: "POST", now: now) {
            PasswordAPI.body(ids: $0, key: "itemIds")
        }
    }
}
