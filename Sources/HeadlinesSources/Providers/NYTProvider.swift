import FoundationEssentials
import HeadlinesCore

/// The New York Times' Top Stories: `GET {base}/svc/topstories/v2/{section}.json` (`home` by
/// default). The API takes its key only as the `api-key` query parameter.
public struct NYTProvider: KeyedNewsAPI {
    public struct Options: Sendable, Equatable {
        public var baseURL: URL
        public var section: String
        public var pageSize: Int
        public init(baseURL: URL = URL(string: "https://api.nytimes.com")!, section: String = "home", pageSize: Int = 10) {
            self.baseURL = baseURL
            self.section = section
            self.pageSize = pageSize
        }
    }

    public let displayName = "The New York Times"
    public let keyVariable = Config.Provider.nyt.keyVariable
    public let noHeadlinesSetting = "[source] section"
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
        let section = options.section.isEmpty ? "home" : options.section
        return ProviderSupport.keyedQuery(options.baseURL, path: "svc/topstories/v2/\(section).json", items: [],
                                          keyName: "api-key", key: apiKey)
    }

    /// `results`; errors come from the API gateway as `{"fault": {"faultstring": ...,
    /// "detail": {"errorcode": ...}}}` (oauth.v2.* for the key, policies.ratelimit.* for the
    /// quota) or from the API as `{"status": "ERROR", "errors": [...]}`.
    public static func decode(_ response: HTTPResponse, now: Date) throws(NewsError) -> [Headline] {
        let root = ProviderSupport.json(response)
        let code = root?.value(at: "fault.detail.errorcode")?.text
        let message = root?.value(at: "fault.faultstring")?.text ?? root?.value(at: "errors.0")?.text
        if !(200...299).contains(response.status) || code != nil || root?.value(at: "status")?.text == "ERROR" {
            throw mapError(status: response.status == 200 ? 400 : response.status, code: code, message: message,
                           response: response, now: now)
        }
        guard case let .array(results)? = root?.value(at: "results") else {
            throw .malformedResponse(detail: ProviderSupport.describeUndecodable(response.body, status: response.status))
        }
        return ProviderSupport.newestFirstUnique(results.compactMap { item in
            guard let title = ProviderSupport.title(item.value(at: "title")?.text),
                  let link = ProviderSupport.link(item.value(at: "url")?.text) else { return nil }
            let date = (item.value(at: "published_date") ?? item.value(at: "updated_date")).flatMap(JSONAPIProvider.date(from:))
            return Headline(id: item.value(at: "uri")?.text ?? link.absoluteString, title: title, url: link,
                            source: "The New York Times", publishedAt: ProviderSupport.published(date, fetchedAt: now),
                            imageURL: image(item.value(at: "multimedia")), summary: ProviderSupport.summary(item.value(at: "abstract")?.text))
        })
    }

    /// The 3:2 crop near 600 px wide when there is one, else the first image.
    static func image(_ multimedia: JSONValue?) -> URL? {
        guard case let .array(media)? = multimedia else { return nil }
        let images = media.filter { ($0.value(at: "type")?.text ?? "image") == "image" }
        let preferred = images.first { $0.value(at: "format")?.text == "threeByTwoSmallAt2X" }
            ?? images.first { $0.value(at: "format")?.text == "mediumThreeByTwo440" } ?? images.first
        return ProviderSupport.link(preferred?.value(at: "url")?.text)
    }

    static func mapError(status: Int, code: String?, message: String?, response: HTTPResponse, now: Date) -> NewsError {
        switch code ?? "" {
        case let c where c.hasPrefix("oauth.v2."): return .invalidKey(code: code, message: message)
        case let c where c.hasPrefix("policies.ratelimit."):
            return .rateLimited(retryAfter: ProviderSupport.retryDate(response, now: now), code: code, message: message)
        default: return ProviderSupport.error(status: status, code: code, message: message, response: response, now: now)
        }
    }
}
