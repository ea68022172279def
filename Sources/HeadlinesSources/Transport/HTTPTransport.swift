import FoundationEssentials
import HeadlinesCore

/// One GET request as the providers build it.
public struct HTTPRequest: Sendable, Equatable {
    public var url: URL
    public var headers: [String: String]
    /// True when a header or the query carries an API key: such a request never goes over plain http to a
    /// non-loopback host, and never follows a redirect to another origin.
    public var carriesKey: Bool

    /// "GET" unless a sync service writes (POST a sign-in or a mark, PUT a mark).
    public var method = "GET"
    /// The request's body (a form or JSON), sent with `method`; nil for none.
    public var body: Data?

    public init(url: URL, headers: [String: String] = [:], carriesKey: Bool = false) {
        self.url = url
        self.headers = headers
        self.carriesKey = carriesKey
    }

    /// A request that writes: `method` with `body`. It carries a credential, so it never leaves
    /// its origin, and it follows no redirect (a redirected POST would become a GET elsewhere).
    public init(url: URL, method: String, body: Data?, headers: [String: String] = [:]) {
        self.init(url: url, headers: headers, carriesKey: true)
        self.method = method
        self.body = body
    }

    /// Throws `NewsError.insecureTransport` for a key-bearing request over http to anything but loopback.
    public func checkKeyIsSafe() throws(NewsError) {
        guard carriesKey else { return }
        let scheme = url.scheme?.lowercased() ?? ""
        let host = url.host ?? ""
        if scheme == "https" { return }
        if scheme == "http" && Self.isLoopback(host) { return }
        // Never the whole URL: its query may hold the key.
        throw .insecureTransport(host: host.isEmpty ? "a URL without a host" : host)
    }

    static func isLoopback(_ host: String) -> Bool {
        var h = Substring(host.lowercased())
        while h.first == "[" { h = h.dropFirst() }
        while h.last == "]" { h = h.dropLast() }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        return h == "localhost" || h == "::1" || (parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil })
    }
}

/// What came back. Header names are lower-cased.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data
    /// How many HTTP requests this answer took: 1, plus one per redirect followed. Each one
    /// costs the API's quota like any other request.
    public var requestCount: Int
    /// Where a chain of permanent redirects (301, 308) from the requested URL ended, when the
    /// answer came through one; nil when there was none or a temporary one came first. The
    /// feed's stored address moves there.
    public var permanentLocation: URL?

    public init(status: Int, headers: [String: String] = [:], body: Data, requestCount: Int = 1) {
        self.status = status
        self.body = body
        self.requestCount = requestCount
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// The seam between providers and the network. `CurlTransport` (module HeadlinesHTTP) is the real
/// one; tests and the demo use others. Implementations throw only `NewsError` (timedOut,
/// unreachable, responseTooLarge, keyRedirected ...).
public protocol HTTPTransport: Sendable {
    func get(_ request: HTTPRequest) async throws -> HTTPResponse
    /// Every request, answered in the same order. The real transport runs them concurrently
    /// (`TransportLimits.maxConcurrent` at a time), so N hung servers cost one timeout, not N.
    func getAll(_ requests: [HTTPRequest]) async -> [Result<HTTPResponse, NewsError>]
}

extension HTTPTransport {
    /// One after another: enough for fakes and fixtures.
    public func getAll(_ requests: [HTTPRequest]) async -> [Result<HTTPResponse, NewsError>] {
        var results: [Result<HTTPResponse, NewsError>] = []
        for request in requests {
            do {
                results.append(.success(try await get(request)))
            } catch let error as NewsError {
                results.append(.failure(error))
            } catch {
                results.append(.failure(.unreachable(detail: "unexpected error")))
            }
        }
        return results
    }
}

/// Limits every transport honours.
public struct TransportLimits: Sendable, Equatable {
    /// Seconds before a request is given up, redirects included. APITube has been seen taking
    /// 28 s, so 30 by default.
    public var timeout: Double = 30
    /// Bytes after decompression; a larger body is `NewsError.responseTooLarge`, never unbounded memory.
    public var maxResponseBytes: Int = 4 * 1024 * 1024
    /// Offer every content encoding the transport supports. On by default; the benchmark turns
    /// it off to measure the difference.
    public var acceptGzip: Bool = true
    /// Requests of one `getAll` in flight at once.
    public var maxConcurrent: Int = 6

    public init(timeout: Double = 30, maxResponseBytes: Int = 4 * 1024 * 1024, acceptGzip: Bool = true,
                maxConcurrent: Int = 6) {
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.acceptGzip = acceptGzip
        self.maxConcurrent = maxConcurrent
    }
}
