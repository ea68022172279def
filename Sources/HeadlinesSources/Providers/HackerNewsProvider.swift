import FoundationEssentials
import HeadlinesCore

/// Hacker News through its Algolia search API, keyless, one request: the front page
/// (`GET {base}/api/v1/search?tags=front_page`), or the newest stories matching `[source] query`
/// (`search_by_date?query=...&tags=story`). Ask HN and other text posts link to their discussion.
public struct HackerNewsProvider: HeadlineProvider {
    public struct Options: Sendable, Equatable {
        public var baseURL: URL
        public var query: String
        public var pageSize: Int
        public init(baseURL: URL = URL(string: "https://hn.algolia.com")!, query: String = "", pageSize: Int = 10) {
            self.baseURL = baseURL
            self.query = query
            self.pageSize = pageSize
        }
    }

    public let displayName = "Hacker News"
    public let keyVariable: String? = nil
    public let noHeadlinesSetting = "[source] query"
    public var options: Options
    let transport: HTTPTransport

    public init(options: Options, transport: HTTPTransport) {
        self.options = options
        self.transport = transport
    }

    public func request() -> HTTPRequest {
        let hits = URLQueryItem(name: "hitsPerPage", value: String(options.pageSize))
        let url = options.query.isEmpty
            ? ProviderSupport.url(options.baseURL, path: "api/v1/search", items: [URLQueryItem(name: "tags", value: "front_page"), hits])
            : ProviderSupport.url(options.baseURL, path: "api/v1/search_by_date",
                                  items: [URLQueryItem(name: "query", value: options.query), URLQueryItem(name: "tags", value: "story"), hits])
        return HTTPRequest(url: url, headers: ["Accept": "application/json"])
    }

    public func fetch(now: Date) async throws -> [Headline] {
        try await ProviderSupport.fetch(request(), key: nil, transport: transport, pageSize: options.pageSize, now: now, decode: Self.decode)
    }

    /// Algolia's answer: `hits`, or `{"message": ..., "status": N}` for an error.
    public static func decode(_ response: HTTPResponse, now: Date) throws(NewsError) -> [Headline] {
        let root = ProviderSupport.json(response)
        guard (200...299).contains(response.status) else {
            throw ProviderSupport.error(status: response.status, code: nil, message: root?.value(at: "message")?.text,
                                        response: response, now: now)
        }
        guard case let .array(hits)? = root?.value(at: "hits") else {
            throw .malformedResponse(detail: ProviderSupport.describeUndecodable(response.body, status: response.status))
        }
        return ProviderSupport.newestFirstUnique(hits.compactMap { headline($0, now: now) })
    }

    static let discussionBase = "https://news.ycombinator.com/item?id="

    static func headline(_ hit: JSONValue, now: Date) -> Headline? {
        guard let title = ProviderSupport.title(hit.value(at: "title")?.text),
              let id = hit.value(at: "objectID")?.text, !id.isEmpty, id.allSatisfy({ $0.isASCII && $0.isNumber }),
              let comments = URL(string: discussionBase + id) else { return nil }
        let link = ProviderSupport.link(hit.value(at: "url")?.text) ?? comments
        let date = hit.value(at: "created_at_i").flatMap(JSONAPIProvider.date(from:))
            ?? hit.value(at: "created_at").flatMap(JSONAPIProvider.date(from:))
        return Headline(id: "hn:" + id, title: title, url: link,
                        source: link == comments ? "Hacker News" : link.host ?? "Hacker News",
                        publishedAt: ProviderSupport.published(date, fetchedAt: now), commentsURL: comments)
    }
}
