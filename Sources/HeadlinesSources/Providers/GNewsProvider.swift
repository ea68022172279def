import FoundationEssentials
import HeadlinesCore

/// GNews' top headlines: `GET {base}/api/v4/top-headlines` with `category`, `lang`, `country`,
/// `q` and `max`. The API takes its key only as the `apikey` query parameter.
public struct GNewsProvider: KeyedNewsAPI {
    public struct Options: Sendable, Equatable {
        public var baseURL: URL
        public var category: String
        public var language: String
        public var country: String
        public var query: String
        public var pageSize: Int
        public init(baseURL: URL = URL(string: "https://gnews.io")!, category: String = "", language: String = "en",
                    country: String = "", query: String = "", pageSize: Int = 10) {
            self.baseURL = baseURL
            self.category = category
            self.language = language
            self.country = country
            self.query = query
            self.pageSize = pageSize
        }
    }

    public let displayName = "GNews"
    public let keyVariable = Config.Provider.gnews.keyVariable
    public let noHeadlinesSetting = "[source] category, language, country and query"
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
        if !options.category.isEmpty { items.append(URLQueryItem(name: "category", value: options.category)) }
        if !options.language.isEmpty { items.append(URLQueryItem(name: "lang", value: options.language)) }
        if !options.country.isEmpty { items.append(URLQueryItem(name: "country", value: options.country)) }
        if !options.query.isEmpty { items.append(URLQueryItem(name: "q", value: options.query)) }
        items.append(URLQueryItem(name: "max", value: String(options.pageSize)))
        return ProviderSupport.keyedQuery(options.baseURL, path: "api/v4/top-headlines", items: items, keyName: "apikey", key: apiKey)
    }

    /// `articles`; errors are `{"errors": ["..."]}` or, for a bad parameter, `{"errors": {"q": "..."}}`.
    public static func decode(_ response: HTTPResponse, now: Date) throws(NewsError) -> [Headline] {
        let root = ProviderSupport.json(response)
        guard (200...299).contains(response.status), root?.value(at: "errors") == nil else {
            throw mapError(status: response.status == 200 ? 400 : response.status, message: errorMessage(root?.value(at: "errors")),
                           response: response, now: now)
        }
        guard case let .array(articles)? = root?.value(at: "articles") else {
            throw .malformedResponse(detail: ProviderSupport.describeUndecodable(response.body, status: response.status))
        }
        return ProviderSupport.newestFirstUnique(articles.compactMap { item in
            guard let title = ProviderSupport.title(item.value(at: "title")?.text),
                  let link = ProviderSupport.link(item.value(at: "url")?.text) else { return nil }
            let date = item.value(at: "publishedAt").flatMap(JSONAPIProvider.date(from:))
            return Headline(id: item.value(at: "id")?.text ?? link.absoluteString, title: title, url: link,
                            source: item.value(at: "source.name")?.text.flatMap(ProviderSupport.title) ?? link.host ?? "GNews",
                            publishedAt: ProviderSupport.published(date, fetchedAt: now),
                            imageURL: ProviderSupport.link(item.value(at: "image")?.text),
                            summary: ProviderSupport.summary(item.value(at: "description")?.text))
        })
    }

    static func errorMessage(_ errors: JSONValue?) -> String? {
        switch errors {
        case let .array(list)?: return list.compactMap(\.text).first
        case let .object(fields)?:
            return fields.sorted { $0.key < $1.key }.first.flatMap { key, value in value.text.map { "\(key): \($0)" } }
        default: return nil
        }
    }

    /// GNews' documented codes: 401 a missing or wrong key; 403 the day's quota is spent (it
    /// comes back at 00:00 UTC); 429 more than the plan's requests per second.
    static func mapError(status: Int, message: String?, response: HTTPResponse, now: Date) -> NewsError {
        if status == 403 {
            let day = 86400.0
            let midnight = Date(timeIntervalSince1970: ((now.timeIntervalSince1970 / day).rounded(.down) + 1) * day)
            return .rateLimited(retryAfter: midnight, code: nil, message: message)
        }
        return ProviderSupport.error(status: status, code: nil, message: message, response: response, now: now)
    }
}
