import Foundation

/// The demo's stand-in for APITube: each request answers with the bundled top-headlines fixture
/// plus one more "arriving" article than the last time, all dated relative to the request, as real
/// APITube JSON. The demo therefore exercises the real decoding path, the timeline, the budget,
/// and (later) notifications, with no key and no network.
public final class DemoTransport: HTTPTransport, @unchecked Sendable {
    private let base: [[String: Any]]
    private let arrivals: [[String: Any]]
    private let lock = NSLock()
    private var requests = 0

    /// `topHeadlines`: an APITube response body; `arrivals`: `{"results": [articles]}`.
    public init(topHeadlines: Data, arrivals: Data) throws {
        func results(_ data: Data) throws -> [[String: Any]] {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let list = object["results"] as? [[String: Any]] else {
                throw NewsError.malformedResponse(detail: "demo fixture without results")
            }
            return list
        }
        base = try results(topHeadlines)
        self.arrivals = try results(arrivals)
    }

    public func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        try request.checkKeyIsSafe()
        let n = lock.withLock { requests += 1; return requests }
        let now = Date()
        // The older bundled headlines, an hour back and ten minutes apart...
        var articles = base.enumerated().map { i, a -> [String: Any] in
            var a = a
            a["published_at"] = ISO8601.format(now.addingTimeInterval(-3600 - Double(i) * 600))
            return a
        }
        // ...and the arrivals so far, newest first, the latest one "just now".
        let arrived = min(n - 1, arrivals.count)
        for k in 0..<arrived {
            var a = arrivals[k]
            a["published_at"] = ISO8601.format(now.addingTimeInterval(-Double(arrived - 1 - k) * 30))
            articles.insert(a, at: 0)
        }
        let body: [String: Any] = ["status": "ok", "page": 1, "results": Array(articles.prefix(10))]
        let data = try JSONSerialization.data(withJSONObject: body)
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: data)
    }
}
