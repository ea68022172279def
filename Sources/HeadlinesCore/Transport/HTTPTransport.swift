import Foundation

/// One GET request as the providers build it.
public struct HTTPRequest: Sendable, Equatable {
    public var url: URL
    public var headers: [String: String]
    /// True when a header carries an API key: such a request never goes over plain http to a
    /// non-loopback host.
    public var carriesKey: Bool

    public init(url: URL, headers: [String: String] = [:], carriesKey: Bool = false) {
        self.url = url
        self.headers = headers
        self.carriesKey = carriesKey
    }

    /// Throws `NewsError.insecureTransport` for a key-bearing request over http to anything but loopback.
    public func checkKeyIsSafe() throws(NewsError) {
        guard carriesKey else { return }
        let scheme = url.scheme?.lowercased() ?? ""
        let host = url.host ?? ""
        if scheme == "https" { return }
        if scheme == "http" && Self.isLoopback(host) { return }
        throw .insecureTransport(host: host.isEmpty ? url.absoluteString : host)
    }

    static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        return h == "localhost" || h == "::1" || (parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil })
    }
}

/// What came back. Header names are lower-cased.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.body = body
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// The seam between providers and the network. `URLSessionTransport` is the real one; tests and the
/// demo use others. Implementations throw only `NewsError` (timedOut, unreachable, responseTooLarge).
public protocol HTTPTransport: Sendable {
    func get(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// Limits every transport honours.
public struct TransportLimits: Sendable, Equatable {
    /// Seconds before a request is given up. APITube has been seen taking 28 s, so 30 by default.
    public var timeout: Double = 30
    /// Bytes; a larger body is `NewsError.responseTooLarge`, never unbounded memory.
    public var maxResponseBytes: Int = 4 * 1024 * 1024
    /// Ask for gzip. On by default; the benchmark turns it off to measure the difference.
    public var acceptGzip: Bool = true

    public init(timeout: Double = 30, maxResponseBytes: Int = 4 * 1024 * 1024, acceptGzip: Bool = true) {
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.acceptGzip = acceptGzip
    }
}
