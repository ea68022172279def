import FoundationEssentials
import HeadlinesCore

/// Lobsters, keyless: `GET {base}/hottest.json` or `{base}/newest.json`. Text posts have an empty
/// `url` and link to their discussion.
public struct LobstersProvider: HeadlineProvider {
    public enum Sort: String, Sendable, Equatable { case hottest, newest }

    public struct Options: Sendable, Equatable {
        public var baseURL: URL
        public var sort: Sort
        public var pageSize: Int
        public init(baseURL: URL = URL(string: "https://lobste.rs")!, sort: Sort = .hottest, pageSize: Int = 10) {
            self.baseURL = baseURL
            self.sort = sort
            self.pageSize = pageSize
        }
    }

    public let displayName = "Lobsters"
    public let keyVariable: String? = nil
    public let noHeadlinesSetting = "[source] sort"
    public var options: Options
    let transport: HTTPTransport

    public init(options: Options, transport: HTTPTransport) {
        self.options = options
        self.transport = transport
    }

    public func request() -> HTTPRequest {
        HTTPRequest(url: ProviderSupport.url(options.baseURL, path: options.sort.rawValue + ".json", items: []),
                    headers: ["Accept": "application/json"])
    }

    public func fetch(now: Date) async throws -> [Headline] {
        try await ProviderSupport.fetch(request(), key: nil, transport: transport, pageSize: options.pageSize, now: now, decode: Self.decode)
    }

    /// The top-level list of stories.
    public static func decode(_ response: HTTPResponse, now: Date) throws(NewsError) -> [Headline] {
        let root = ProviderSupport.json(response)
        guard (200...299).contains(response.status) else {
            throw ProviderSupport.error(status: response.status, code: nil, message: root?.value(at: "error")?.text,
                                        response: response, now: now)
        }
        guard case let .array(stories)? = root else {
            throw .malformedResponse(detail: ProviderSupport.describeUndecodable(response.body, status: response.status))
        }
        return ProviderSupport.newestFirstUnique(stories.compactMap { story in
            guard let title = ProviderSupport.title(story.value(at: "title")?.text),
                  let comments = ProviderSupport.link(story.value(at: "comments_url")?.text)
                    ?? ProviderSupport.link(story.value(at: "short_id_url")?.text) else { return nil }
            let link = ProviderSupport.link(story.value(at: "url")?.text) ?? comments
            let date = story.value(at: "created_at").flatMap(JSONAPIProvider.date(from:))
            return Headline(id: story.value(at: "short_id")?.text.map { "lobsters:" + $0 } ?? comments.absoluteString,
                            title: title, url: link, source: link == comments ? "Lobsters" : link.host ?? "Lobsters",
                            publishedAt: ProviderSupport.published(date, fetchedAt: now),
                            summary: ProviderSupport.summary(story.value(at: "description_plain")?.text), commentsURL: comments)
        })
    }
}
