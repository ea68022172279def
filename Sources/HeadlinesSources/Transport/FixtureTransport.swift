import FoundationEssentials
import HeadlinesCore

/// Answers requests from files instead of the network, by URL path. The demo runs the real
/// providers' decoding path on the bundled fixtures through it; tests use it as an offline server.
public struct FixtureTransport: HTTPTransport {
    public var routes: [String: HTTPResponse]

    public init(routes: [String: HTTPResponse]) { self.routes = routes }

    public func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        try request.checkKeyIsSafe()
        guard let response = routes[request.url.path] else {
            return HTTPResponse(status: 404, headers: ["Content-Type": "text/plain"], body: Data("not found".utf8))
        }
        return response
    }
}
