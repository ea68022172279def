import FoundationEssentials
import HeadlinesCore

/// The request and answer steps the built-in API providers share.
extension ProviderSupport {
    /// `base` with `path` appended and `items` as its query. "+" is sent as %2B: servers read a
    /// bare "+" as a space, which would change a key or a query.
    static func url(_ base: URL, path: String, items: [URLQueryItem]) -> URL {
        var components = URLComponents(url: path.isEmpty ? base : base.appendingPathComponent(path),
                                       resolvingAgainstBaseURL: false)!
        components.queryItems = items.isEmpty ? nil : items
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingAll("+", with: "%2B")
        return components.url!
    }

    /// A keyed request whose key is a query parameter, for APIs that take it nowhere else (The
    /// Guardian, The New York Times, GNews). The URL then holds the key: it is sent only over
    /// https (or to loopback), never shown, and a redirect may not take it to another origin.
    static func keyedQuery(_ base: URL, path: String, items: [URLQueryItem], keyName: String, key: String) -> HTTPRequest {
        HTTPRequest(url: url(base, path: path, items: items + [URLQueryItem(name: keyName, value: key)]),
                    headers: ["Accept": "application/json"], carriesKey: true)
    }

    /// Sends `request` (checked first when it carries a key) and decodes the answer; any error
    /// leaves with every trace of `key` replaced. Keeps the newest `pageSize`.
    static func fetch(_ request: HTTPRequest, key: String?, transport: HTTPTransport, pageSize: Int, now: Date,
                      decode: (HTTPResponse, Date) throws(NewsError) -> [Headline]) async throws -> [Headline] {
        do {
            try request.checkKeyIsSafe()
            let response = try await transport.get(request)
            return cut(try decode(response, now), toPageSize: pageSize)
        } catch let error as NewsError {
            throw error.redacting(key)
        }
    }

    /// The JSON of an answer, or nil when it is not JSON at all.
    static func json(_ response: HTTPResponse) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: ServerJSON.decodable(response.body))
    }

    /// An http(s) link from text that an API HTML-escaped (Reddit's `&amp;` in image links).
    static func unescapedLink(_ s: String?) -> URL? {
        link(s.map(TextCleaning.decodeEntities))
    }

    /// A title as it is shown, or nil when nothing is left.
    static func title(_ s: String?) -> String? {
        s.map(TextCleaning.plainTitle).flatMap { $0.isEmpty ? nil : $0 }
    }

    static func summary(_ s: String?) -> String? {
        s.map(TextCleaning.plainSummary).flatMap { $0.isEmpty ? nil : $0 }
    }
}
