import FoundationEssentials
import HeadlinesCore

/// NewsAPI.org's top headlines: `GET {base}/v2/top-headlines`, key in the `X-Api-Key` header.
/// Articles have no id, so the URL is the id; `[Removed]` placeholders are dropped.
public struct NewsAPIProvider: KeyedNewsAPI {
    public struct Options: Sendable, Equatable {
        public var baseURL: URL
        public var country: String
        public var category: String
        public var query: String
        public var pageSize: Int

        public init(baseURL: URL = URL(string: "https://newsapi.org")!, country: String = "us",
                    category: String = "", query: String = "", pageSize: Int = 10) {
            self.baseURL = baseURL
            self.country = country
            self.category = category
            self.query = query
            self.pageSize = pageSize
        }
    }

    public let displayName = "NewsAPI"
    public let keyVariable = Config.Provider.newsapi.keyVariable
    public let noHeadlinesSetting = "[source] country, category and query"
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
        var components = URLComponents(url: options.baseURL.appendingPathComponent("v2/top-headlines"),
                                       resolvingAgainstBaseURL: false)!
        var items: [URLQueryItem] = []
        if !options.country.isEmpty { items.append(URLQueryItem(name: "country", value: options.country)) }
        if !options.category.isEmpty { items.append(URLQueryItem(name: "category", value: options.category)) }
        if !options.query.isEmpty { items.append(URLQueryItem(name: "q", value: options.query)) }
        items.append(URLQueryItem(name: "pageSize", value: String(options.pageSize)))
        components.queryItems = items
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingAll("+", with: "%2B")
        return HTTPRequest(url: components.url!, headers: ["X-Api-Key": apiKey, "Accept": "application/json"],
                           carriesKey: true)
    }

    public static func decode(_ response: HTTPResponse, now: Date) throws(NewsError) -> [Headline] {
        let envelope = try? JSONDecoder().decode(Envelope.self, from: ServerJSON.decodable(response.body))
        if let envelope, envelope.status == "error" || !(200...299).contains(response.status) {
            throw mapError(status: response.status, code: envelope.code, message: envelope.message,
                           response: response, now: now)
        }
        guard (200...299).contains(response.status) else {
            throw ProviderSupport.error(status: response.status, code: nil, message: nil, response: response, now: now)
        }
        guard let envelope, envelope.status == "ok", let articles = envelope.articles else {
            throw .malformedResponse(detail: ProviderSupport.describeUndecodable(response.body, status: response.status))
        }
        return ProviderSupport.newestFirstUnique(articles.compactMap { $0.value?.headline(now: now) })
    }

    static func mapError(status: Int, code: String?, message: String?, response: HTTPResponse, now: Date) -> NewsError {
        switch code ?? "" {
        case "apiKeyInvalid", "apiKeyMissing", "apiKeyDisabled": return .invalidKey(code: code, message: message)
        case "apiKeyExhausted", "rateLimited":
            return .rateLimited(retryAfter: ProviderSupport.retryDate(response, now: now), code: code, message: message)
        case "unexpectedError": return .serverError(status: max(status, 500), code: code, message: message)
        case "maximumResultsReached": return .planLimit(status: status == 200 ? 426 : status, code: code, message: message)
        case "parameterInvalid", "parametersMissing", "sourcesTooMany", "sourceDoesNotExist":
            return .badRequest(status: status == 200 ? 400 : status, code: code, message: message)
        default:
            return ProviderSupport.error(status: status == 200 ? 400 : status, code: code, message: message,
                                         response: response, now: now)
        }
    }

    /// NewsAPI appends the outlet to most titles ("Storm hits coast - BBC News") while the source
    /// is shown beside the title anyway: drop a last ` - `, ` | `, ` – ` or ` — ` part that names
    /// the article's own source (ignoring case). Kept when it names something else, or when
    /// nothing would be left.
    static func removingOwnOutlet(_ title: String, source: String?) -> String {
        guard let source = source?.trimmed(), !source.isEmpty else { return title }
        for separator in [" - ", " | ", " – ", " — "] {
            guard let cut = title.ranges(of: separator).last,
                  title[cut.upperBound...].trimmed().equalsIgnoringCase(source) else { continue }
            let head = title[..<cut.lowerBound].trimmed()
            if !head.isEmpty { return head }
        }
        return title
    }

    struct Envelope: Decodable {
        var status: String?
        var code: String?
        var message: String?
        var articles: [Lenient<Article>]?
    }

    struct Article: Decodable {
        struct Source: Decodable { var id: String?; var name: String? }
        var source: Source?
        var title: String?
        var description: String?
        var url: String?
        var urlToImage: String?
        var publishedAt: String?

        func headline(now: Date) -> Headline? {
            guard let title = title.map(TextCleaning.plainTitle), !title.isEmpty, title != "[Removed]",
                  let link = ProviderSupport.link(url) else { return nil }
            let summary = description.map(TextCleaning.plainSummary).flatMap { $0.isEmpty || $0 == "[Removed]" ? nil : $0 }
            let name = source?.name.map(TextCleaning.plainTitle).flatMap { $0.isEmpty ? nil : $0 }
            return Headline(id: link.absoluteString, title: NewsAPIProvider.removingOwnOutlet(title, source: name), url: link,
                            source: name ?? link.host ?? "", publishedAt: ProviderSupport.published(publishedAt.flatMap(ISO8601.parse), fetchedAt: now),
                            imageURL: ProviderSupport.link(urlToImage), summary: summary)
        }
    }
}
