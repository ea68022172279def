import FoundationEssentials
import HeadlinesCore

/// The Guardian's Open Platform: `GET {base}/search?order-by=newest&show-fields=thumbnail,trailText`,
/// optionally one `section` and a `q`. The API takes its key only as the `api-key` query
/// parameter (see `ProviderSupport.keyedQuery`).
public struct GuardianProvider: KeyedNewsAPI {
    public struct Options: Sendable, Equatable {
        public var baseURL: URL
        public var section: String
        public var query: String
        public var pageSize: Int
        public init(baseURL: URL = URL(string: "https://content.guardianapis.com")!, section: String = "", query: String = "",
                    pageSize: Int = 10) {
            self.baseURL = baseURL
            self.section = section
            self.query = query
            self.pageSize = pageSize
        }
    }

    public let displayName = "The Guardian"
    public let keyVariable = Config.Provider.guardian.keyVariable
    public let noHeadlinesSetting = "[source] section and query"
    public var options: Options
    public let apiKey: String?
    public let transport: HTTPTransport
    public var pageSize: Int { options.pageSize }

    public init(options: Options, apiKey: String?, transport: HTTPTransport) {
        self.options = options
        self.apiKey = apiKey
        self.transport = transport
    }

    public func request() throws(NewsError) -> HTTPRequest {
        let apiKey = try requiredKey()
        var items: [URLQueryItem] = []
        if !options.section.isEmpty { items.append(URLQueryItem(name: "section", value: options.section)) }
        if !options.query.isEmpty { items.append(URLQueryItem(name: "q", value: options.query)) }
        items += [URLQueryItem(name: "order-by", value: "newest"), URLQueryItem(name: "show-fields", value: "thumbnail,trailText"),
                  URLQueryItem(name: "page-size", value: String(min(options.pageSize, 50)))]
        return ProviderSupport.keyedQuery(options.baseURL, path: "search", items: items, keyName: "api-key", key: apiKey)
    }

    /// `response.results`; errors are `{"response": {"status": "error", "message": ...}}` (a bad
    /// section or parameter) or the gateway's `{"message": ...}` (401 for a key it does not know,
    /// 403 for a key not allowed this, 429 over the day's or the second's limit).
    public static func decode(_ response: HTTPResponse, now: Date) throws(NewsError) -> [Headline] {
        let root = ProviderSupport.json(response)
        let inner = root?.value(at: "response")
        if !(200...299).contains(response.status) || inner?.value(at: "status")?.text == "error" {
            let message = inner?.value(at: "message")?.text ?? root?.value(at: "message")?.text
            throw ProviderSupport.error(status: response.status == 200 ? 400 : response.status, code: nil, message: message,
                                        response: response, now: now)
        }
        guard case let .array(results)? = inner?.value(at: "results") else {
            throw .malformedResponse(detail: ProviderSupport.describeUndecodable(response.body, status: response.status))
        }
        return ProviderSupport.newestFirstUnique(results.compactMap { item in
            guard let title = ProviderSupport.title(item.value(at: "webTitle")?.text),
                  let link = ProviderSupport.link(item.value(at: "webUrl")?.text) else { return nil }
            let date = item.value(at: "webPublicationDate").flatMap(JSONAPIProvider.date(from:))
            return Headline(id: item.value(at: "id")?.text ?? link.absoluteString, title: title, url: link,
                            source: item.value(at: "sectionName")?.text.flatMap(ProviderSupport.title) ?? "The Guardian",
                            publishedAt: ProviderSupport.published(date, fetchedAt: now),
                            imageURL: ProviderSupport.link(item.value(at: "fields.thumbnail")?.text),
                            summary: ProviderSupport.summary(item.value(at: "fields.trailText")?.text))
        })
    }
}
