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
        let url = itemsURL
        let response = try await api.send(now: now) { HTTPRequest(url: url, headers: $0, carriesKey: true) }
        return ProviderSupport.cut(try Self.decode(response, now: now), toPageSize: pageSize)
    }

    /// `{"items": [...]}`, newest first by `pubDate`, each item once.
    static func decode(_ response: HTTPResponse, now: Date) throws(NewsError) -> [Headline] {
        let root = try PasswordAPI.json(response)
        let items = try PasswordAPI.list(root, at: "items", status: response.status)
        return ProviderSupport.newestFirstUnique(items.compactMap { headline($0, now: now) })
    }

    static func headline(_ item: JSONValue, now: Date) -> Headline? {
        guard let id = PasswordAPI.itemID(item.value(at: "id")),
              let title = PasswordAPI.title(item.value(at: "title")?.text),
              let link = ProviderSupport.link(item.value(at: "url")?.text) else { return nil }
        let date = item.value(at: "pubDate").flatMap(JSONAPIProvider.date(from:))
        return Headline(id: id, title: title, url: link, source: link.host ?? "Nextcloud News",
                        publishedAt: ProviderSupport.published(date, fetchedAt: now),
                        summary: FeedText.summary(item.value(at: "body")?.text))
    }

    public func markRead(_ ids: [String], now: Date) async throws -> [String] {
        let numeric = PasswordAPI.numericIDs(ids)
        guard !numeric.isEmpty else { return ids }
        let url = ProviderSupport.url(account.baseURL, path: "items/read/multiple", items: [])
        let body = PasswordAPI.body(ids: numeric, key: "itemIds")
        _ = try await api.send(now: now) { headers in
            HTTPRequest(url: url, method: "POST", body: body, headers: headers.merging(["Content-Type": "application/json"]) { _, new in new })
        }
        // The app skips the ids it does not have: those cannot be unread there.
        return ids
    }
}
