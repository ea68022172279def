import FoundationEssentials
import HeadlinesCore

/// Any JSON API as a headline source (the seeds' jsonplaceholder widget): a URL plus dotted key
/// paths to the list and, inside each item, the title, link, date and id. A link can also be
/// built from a template such as `https://example.com/posts/{id}` for APIs that give only ids.
/// A key, when `key` says where, goes in a header or, for APIs that take it nowhere else, a query
/// parameter; `error-path` names where an error answer keeps its message.
public struct JSONAPIProvider: HeadlineProvider {
    public typealias Paths = JSONPaths

    public let displayName: String
    public let noHeadlinesSetting = "[source] items-path, title-path and link-path"
    public var sourceKind: NewsError.SourceKind { .jsonAPI }
    public let url: URL
    public let paths: Paths
    public var key: JSONKeyPlacement?
    public var userAgent: String?
    let apiKey: String?
    let transport: HTTPTransport

    public init(url: URL, paths: Paths, key: JSONKeyPlacement? = nil, apiKey: String? = nil, userAgent: String? = nil,
                transport: HTTPTransport) {
        self.url = url
        self.paths = paths
        self.key = key
        self.apiKey = apiKey
        self.userAgent = userAgent
        self.transport = transport
        displayName = "The JSON API at \(url.host ?? "its [source] url")"
    }

    public var keyVariable: String? { key == nil ? nil : Config.Provider.jsonKeyVariable }

    /// The exact request sent: the key where `key` says, the User-Agent when set.
    public func request() throws(NewsError) -> HTTPRequest {
        var headers = ["Accept": "application/json"]
        if let userAgent { headers["User-Agent"] = userAgent }
        guard let key else { return HTTPRequest(url: url, headers: headers) }
        guard let apiKey, !apiKey.isEmpty else { throw .missingKey(envVariable: Config.Provider.jsonKeyVariable) }
        switch key {
        case let .header(name):
            headers[name] = apiKey
            return HTTPRequest(url: url, headers: headers, carriesKey: true)
        case let .queryParameter(name):
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
            components.queryItems = (components.queryItems ?? []).filter { $0.name != name } + [URLQueryItem(name: name, value: apiKey)]
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingAll("+", with: "%2B")
            return HTTPRequest(url: components.url!, headers: headers, carriesKey: true)
        }
    }

    public func fetch(now: Date) async throws -> [Headline] {
        let paths = paths, source = url.host ?? ""
        return try await ProviderSupport.fetch(try request(), key: apiKey, transport: transport, pageSize: Int.max, now: now) { response, now throws(NewsError) in
            guard (200...299).contains(response.status) else {
                throw ProviderSupport.error(status: response.status, code: nil, message: Self.errorMessage(response.body, paths: paths),
                                            response: response, now: now)
            }
            if let message = Self.errorMessage(response.body, paths: paths) {
                throw ProviderSupport.error(status: 400, code: nil, message: message, response: response, now: now)
            }
            return try Self.decode(response.body, paths: paths, source: source, now: now)
        }
    }

    /// The text at `error-path` of an answer, when it has one (an object is its own `message`).
    static func errorMessage(_ body: Data, paths: Paths) -> String? {
        guard let path = paths.error,
              let root = try? JSONDecoder().decode(JSONValue.self, from: ServerJSON.decodable(body)),
              let found = root.value(at: path) else { return nil }
        let text = found.text ?? found.value(at: "message")?.text
        return text.flatMap { $0.trimmed().isEmpty ? nil : $0 }
    }

    public static func decode(_ body: Data, paths: Paths, source: String, now: Date) throws(NewsError) -> [Headline] {
        guard let root = try? JSONDecoder().decode(JSONValue.self, from: ServerJSON.decodable(body)) else {
            throw .malformedResponse(detail: ProviderSupport.describeUndecodable(body, status: 200))
        }
        guard case let .array(list)? = root.value(at: paths.items) else {
            throw .malformedResponse(detail: "no list at \(paths.items.isEmpty ? "the top level" : "'\(paths.items)'")")
        }
        let headlines = list.compactMap { item -> Headline? in
            guard let title = item.value(at: paths.title)?.text.map(TextCleaning.plainTitle), !title.isEmpty else { return nil }
            var link = paths.link.flatMap { text(item.value(at: $0)?.text, unescaped: paths.htmlUnescape) }
            if link == nil, let template = paths.linkTemplate { link = ProviderSupport.link(fill(template, from: item)) }
            guard let link else { return nil }
            let id = paths.id.flatMap { item.value(at: $0)?.text } ?? link.absoluteString
            let date = paths.date.flatMap { item.value(at: $0) }.flatMap(Self.date(from:))
            let itemSource = paths.source.flatMap { item.value(at: $0)?.text } ?? link.host ?? source
            let image = paths.image.flatMap { text(item.value(at: $0)?.text, unescaped: paths.htmlUnescape) }
            let comments = paths.comments.flatMap { text(item.value(at: $0)?.text, unescaped: paths.htmlUnescape) }
            return Headline(id: id, title: title, url: link, source: itemSource, publishedAt: ProviderSupport.published(date, fetchedAt: now),
                            imageURL: image, commentsURL: comments)
        }
        return ProviderSupport.newestFirstUnique(headlines)
    }

    /// A link from an item, its HTML entities decoded first when `html-unescape` is on.
    private static func text(_ s: String?, unescaped: Bool) -> URL? {
        unescaped ? ProviderSupport.unescapedLink(s) : ProviderSupport.link(s)
    }

    /// A date as JSON APIs send one: RFC 3339, an RFC 822 or other feed-style date, or a Unix
    /// epoch as a number or a numeric string (Reddit's `created_utc` is `1764460800.0`), in
    /// seconds or milliseconds told apart by magnitude.
    static func date(from value: JSONValue) -> Date? {
        switch value {
        case let .integer(i): return epoch(Double(i))
        case let .number(d): return epoch(d)
        case let .string(s):
            let t = s.trimmed()
            if !t.isEmpty, t.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let d = Double(t) { return epoch(d) }
            return ISO8601.parse(t) ?? FeedDates.parse(t)
        default: return nil
        }
    }

    /// 1e11 seconds is the year 5138 and 1e11 milliseconds is March 1973, so anything from 1e11
    /// up is milliseconds. Zero and negatives are a missing date, not 1970.
    static func epoch(_ value: Double) -> Date? {
        guard value.isFinite, value > 0, value < 1e14 else { return nil }
        return Date(timeIntervalSince1970: value >= 1e11 ? value / 1000 : value)
    }

    /// The template with each `{KEY.PATH}` replaced by that value, percent-encoded for a path.
    static func fill(_ template: String, from item: JSONValue) -> String? {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out += rest[..<open]
            let key = String(rest[rest.index(after: open)..<close])
            guard let v = item.value(at: key)?.text else { return nil }
            out += percentEncodedForPath(ProviderSupport.withoutTabsOrNewlines(v).trimmed())
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// RFC 3986 `pchar` and "/" kept, every other byte of the UTF-8 as %XX (what Foundation's
    /// `.urlPathAllowed` keeps).
    static func percentEncodedForPath(_ s: String) -> String {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for b in s.utf8 {
            if allowed.contains(b) { bytes.append(b) }
            else { bytes += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0xF)]] }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
