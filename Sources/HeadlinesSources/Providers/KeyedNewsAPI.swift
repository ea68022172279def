import FoundationEssentials
import HeadlinesCore

/// What the keyed news APIs (APITube, NewsAPI, The Guardian, The New York Times, GNews) share:
/// a key that must be set, one request per reload, the answer decoded and cut to the page, and
/// every error leaving with the key redacted. Each says only how its request and answer look.
public protocol KeyedNewsAPI: HeadlineProvider {
    var apiKey: String? { get }
    var transport: HTTPTransport { get }
    var pageSize: Int { get }
    func request() throws(NewsError) -> HTTPRequest
    static func decode(_ response: HTTPResponse, now: Date) throws(NewsError) -> [Headline]
}

extension KeyedNewsAPI {
    public func fetch(now: Date) async throws -> [Headline] {
        try await ProviderSupport.fetch(try request(), key: apiKey, transport: transport, pageSize: pageSize,
                                        now: now, decode: Self.decode)
    }

    /// The key, or the error naming the variable that sets it.
    func requiredKey() throws(NewsError) -> String {
        guard let apiKey, !apiKey.isEmpty else { throw .missingKey(envVariable: keyVariable ?? displayName) }
        return apiKey
    }
}
