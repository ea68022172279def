import FoundationEssentials
import HeadlinesCore

/// APITube's top headlines: `GET {base}/v1/news/top-headlines`, newest first, only the fields we
/// show (`fl=`, 34 times fewer bytes), key in the `X-API-Key` header and never in the URL.
public struct APITubeProvider: KeyedNewsAPI {
    public struct Options: Sendable, Equatable {
        public var baseURL: URL
        public var language: String
        public var country: String
        public var pageSize: Int
        /// Ask only for the fields we show. Off only in the benchmark, to measure what it saves.
        public var limitFields: Bool

        public init(baseURL: URL = URL(string: "https://api.apitube.io")!, language: String = "en",
                    country: String = "", pageSize: Int = 10, limitFields: Bool = true) {
            self.baseURL = baseURL
            self.language = language
            self.country = country
            self.pageSize = pageSize
            self.limitFields = limitFields
        }
    }

    public static let fieldList = "id,title,href,published_at,source.domain,image"
    public let displayName = "APITube"
    public let keyVariable = Config.Provider.apitube.keyVariable
    public let noHeadlinesSetting = "[source] language and country"
    public var options: Options
    public let apiKey: String?
    public let transport: HTTPTransport
    public var pageSize: Int { options.pageSize }

    public init(options: Options, apiKey: String?, transport: HTTPTransport) {
        self.options = options
        self.apiKey = apiKey
        self.transport = transport
    }

    /// The exact request this provider sends.
    public func request() throws(NewsError) -> HTTPRequest {
        let apiKey = try requiredKey()
        var components = URLComponents(url: options.baseURL.appendingPathComponent("v1/news/top-headlines"),
                                       resolvingAgainstBaseURL: false)!
        var items: [URLQueryItem] = []
        if !options.language.isEmpty { items.append(URLQueryItem(name: "language.code", value: options.language)) }
        if !options.country.isEmpty { items.append(URLQueryItem(name: "source.country.code", value: options.country)) }
        items.append(URLQueryItem(name: "sort.by", value: "published_at"))
        items.append(URLQueryItem(name: "sort.order", value: "desc"))
        items.append(URLQueryItem(name: "per_page", value: String(options.pageSize)))
        if options.limitFields { items.append(URLQueryItem(name: "fl", value: Self.fieldList)) }
        components.queryItems = items
        return HTTPRequest(url: components.url!, headers: ["X-API-Key": apiKey, "Accept": "application/json"],
                           carriesKey: true)
    }

    /// Decodes a response: headlines on success, the typed error otherwise (also for `not_ok`
    /// under HTTP 200).
    public static func decode(_ response: HTTPResponse, now: Date) throws(NewsError) -> [Headline] {
        let envelope = try? JSONDecoder().decode(Envelope.self, from: ServerJSON.decodable(response.body))
        if let envelope, envelope.status == "not_ok" || !(200...299).contains(response.status) {
            let first = envelope.errors?.first
            let status = first?.status ?? (response.status == 200 ? 400 : response.status)
            throw mapError(status: status, code: first?.code, message: first?.message, response: response, now: now)
        }
        guard (200...299).contains(response.status) else {
            throw ProviderSupport.error(status: response.status, code: nil, message: nil, response: response, now: now)
        }
        guard let envelope, envelope.status == "ok", let results = envelope.results else {
            throw .malformedResponse(detail: ProviderSupport.describeUndecodable(response.body, status: response.status))
        }
        return ProviderSupport.newestFirstUnique(results.compactMap { $0.value?.headline(now: now) })
    }

    /// APITube's error codes to the advice that fits: the key (ER0175 invalid, ER0230 expired,
    /// ER0201/ER0202 missing or malformed; other ER02xx codes are about the request's parameters,
    /// such as ER0250 "entity not found", and go by the HTTP status), the rate (ER0203, ER0204 ban,
    /// ER0429), the plan (ER0171 per_page, ER0173 page; ER06xx endpoint not on the plan), the
    /// server (ER0183, ER09xx). Anything else goes by the HTTP status.
    static func mapError(status: Int, code: String?, message: String?, response: HTTPResponse, now: Date) -> NewsError {
        switch code ?? "" {
        case "ER0203", "ER0204", "ER0429":
            return .rateLimited(retryAfter: ProviderSupport.retryDate(response, now: now), code: code, message: message)
        case "ER0175", "ER0230", "ER0201", "ER0202": return .invalidKey(code: code, message: message)
        case "ER0171", "ER0173": return .planLimit(status: status == 200 ? 400 : status, code: code, message: message)
        case let c where c.hasPrefix("ER06"): return .forbidden(code: code, message: message)
        case "ER0183": return .serverError(status: max(status, 500), code: code, message: message)
        case let c where c.hasPrefix("ER09"): return .serverError(status: max(status, 500), code: code, message: message)
        default: return ProviderSupport.error(status: status, code: code, message: message, response: response, now: now)
        }
    }

    struct Envelope: Decodable {
        var status: String?
        var results: [Lenient<Article>]?
        var errors: [APIError]?
    }

    struct APIError: Decodable {
        var status: Int?
        var code: String?
        var message: String?
    }

    struct Article: Decodable {
        var id: LosslessID?
        var title: String?
        var href: String?
        var published_at: String?
        var image: String?
        var description: String?
        var source: Source?

        struct Source: Decodable { var domain: String? }

        func headline(now: Date) -> Headline? {
            guard let title = title.map(TextCleaning.plainTitle), !title.isEmpty,
                  let url = ProviderSupport.link(href) else { return nil }
            let summary = description.map(TextCleaning.plainSummary).flatMap { $0.isEmpty ? nil : $0 }
            return Headline(id: id?.value ?? url.absoluteString, title: title, url: url,
                            source: source?.domain.flatMap { $0.isEmpty ? nil : $0 } ?? url.host ?? "",
                            publishedAt: ProviderSupport.published(published_at.flatMap(ISO8601.parse), fetchedAt: now),
                            imageURL: ProviderSupport.link(image), summary: summary)
        }
    }
}

/// An id that arrives as a number or a string; kept as its string form.
struct LosslessID: Decodable {
    var value: String
    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let i = try? c.decode(Int64.self) { value = String(i) }
        else if let s = try? c.decode(String.self) { value = s }
        else if let d = try? c.decode(Double.self) { value = String(d) }
        else { throw DecodingError.dataCorruptedError(in: c, debugDescription: "id is neither number nor string") }
    }
}
