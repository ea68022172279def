import FoundationEssentials
import HeadlinesCore
import Synchronization

/// The demo's stand-in for the network. It answers, dated relative to the request:
/// - `/v1/news/top-headlines`: APITube JSON of the bundled fixture plus the arrivals so far;
/// - `/world.rss`: the bundled top headlines as an RSS 2.0 feed;
/// - `/wire.atom`: an Atom feed with one more "arriving" headline at each request.
/// The demo therefore runs the real decoding paths, the timeline, the budget and notifications,
/// with no key and no network.
public final class DemoTransport: HTTPTransport {
    typealias Article = [String: JSONValue]
    private let base: [Article]
    private let arrivals: [Article]
    private let requests = Mutex(0)
    /// The wall clock the answers are dated from (the core reads no clock itself).
    private let clock: @Sendable () -> Date

    /// `topHeadlines`: an APITube response body; `arrivals`: `{"results": [articles]}`.
    public init(topHeadlines: Data, arrivals: Data, clock: @escaping @Sendable () -> Date) throws {
        self.clock = clock
        func results(_ data: Data) throws -> [Article] {
            guard case let .object(object)? = try? JSONDecoder().decode(JSONValue.self, from: data),
                  case let .array(list)? = object["results"] else {
                throw NewsError.malformedResponse(detail: "demo fixture without results")
            }
            return list.compactMap { if case let .object(a) = $0 { a } else { nil } }
        }
        base = try results(topHeadlines)
        self.arrivals = try results(arrivals)
    }

    public func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        try request.checkKeyIsSafe()
        let now = clock()
        switch request.url.path {
        case "/world.rss":
            return xml(rss(title: "Sample World News", articles: dated(base, now: now)))
        case "/wire.atom":
            let n = requests.withLock { $0 += 1; return $0 }
            return xml(atom(title: "Demo Wire", articles: arrived(n, now: now)))
        default:
            break
        }
        let n = requests.withLock { $0 += 1; return $0 }
        // The older bundled headlines, an hour back and ten minutes apart...
        var articles = dated(base, now: now)
        // ...and the arrivals so far, newest first, the latest one "just now".
        let arrived = min(n - 1, arrivals.count)
        for k in 0..<arrived {
            var a = arrivals[k]
            a["published_at"] = .string(ISO8601.format(now.addingTimeInterval(-Double(arrived - 1 - k) * 30)))
            articles.insert(a, at: 0)
        }
        let body: JSONValue = .object(["status": .string("ok"), "page": .integer(1),
                                       "results": .array(articles.prefix(10).map(JSONValue.object))])
        let data = try JSONEncoder().encode(body)
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: data)
    }

    /// The bundled headlines, an hour back and ten minutes apart.
    private func dated(_ list: [Article], now: Date) -> [Article] {
        list.enumerated().map { i, a in
            var a = a
            a["published_at"] = .string(ISO8601.format(now.addingTimeInterval(-3600 - Double(i) * 600)))
            return a
        }
    }

    /// The first `n - 1` arrivals, newest first, the latest "just now".
    private func arrived(_ n: Int, now: Date) -> [Article] {
        let count = min(max(n - 1, 0), arrivals.count)
        return (0..<count).reversed().map { k in
            var a = arrivals[k]
            a["published_at"] = .string(ISO8601.format(now.addingTimeInterval(-Double(count - 1 - k) * 30)))
            return a
        }
    }

    private func xml(_ text: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "application/xml"], body: Data(text.utf8))
    }

    private static func esc(_ value: JSONValue?) -> String {
        esc(value?.text ?? "")
    }

    private static func esc(_ s: String) -> String {
        s.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;")
            .replacingAll(">", with: "&gt;").replacingAll("\"", with: "&quot;")
    }

    private func rss(title: String, articles: [Article]) -> String {
        let items = articles.map { a in
            let date = a["published_at"]?.text.flatMap(ISO8601.parse).map(RFC822.format) ?? ""
            return "<item><title>\(Self.esc(a["title"]))</title><link>\(Self.esc(a["href"]))</link>"
                + "<guid isPermaLink=\"false\">demo-\(Self.esc(a["id"]))</guid><pubDate>\(date)</pubDate></item>"
        }.joined()
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\"><channel><title>\(Self.esc(title))</title>"
            + "<link>https://demo.invalid/</link><description>Bundled sample headlines</description>\(items)</channel></rss>"
    }

    private func atom(title: String, articles: [Article]) -> String {
        let entries = articles.map { a in
            "<entry><title>\(Self.esc(a["title"]))</title><link rel=\"alternate\" href=\"\(Self.esc(a["href"]))\"/>"
                + "<id>urn:demo:\(Self.esc(a["id"]))</id><updated>\(Self.esc(a["published_at"]))</updated></entry>"
        }.joined()
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"><title>\(Self.esc(title))</title>"
            + "<id>urn:demo:wire</id><updated>\(ISO8601.format(clock()))</updated>\(entries)</feed>"
    }
}
