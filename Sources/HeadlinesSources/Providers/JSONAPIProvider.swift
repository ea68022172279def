import FoundationEssentials
import HeadlinesCore

/// Any JSON API as a headline source (the seeds' jsonplaceholder widget): a URL plus dotted key
/// paths to the list and, inside each item, the title, link, date and id. A link can also be
/// built from a template such as `https://example.com/posts/{id}` for APIs that give only ids.
public struct JSONAPIProvider: HeadlineProvider {
    public typealias Paths = JSONPaths

    public let displayName: String
    public let keyVariable: String? = nil
    public let noHeadlinesSetting = "[source] items-path, title-path and link-path"
    public var sourceKind: NewsError.SourceKind { .jsonAPI }
    public let url: URL
    public let paths: Paths
    let transport: HTTPTransport

    public init(url: URL, paths: Paths, transport: HTTPTransport) {
        self.url = url
        self.paths = paths
        self.transport = transport
        displayName = "The JSON API at \(url.host ?? url.absoluteString)"
    }

    public func fetch(now: Date) async throws -> [Headline] {
        let response = try await transport.get(HTTPRequest(url: url, headers: ["Accept": "application/json"]))
        guard (200...299).contains(response.status) else {
            throw ProviderSupport.error(status: response.status, code: nil, message: nil, response: response, now: now)
        }
        return try Self.decode(response.body, paths: paths, source: url.host ?? "", now: now)
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
            var link = paths.link.flatMap { ProviderSupport.link(item.value(at: $0)?.text) }
            if link == nil, let template = paths.linkTemplate { link = ProviderSupport.link(fill(template, from: item)) }
            guard let link else { return nil }
            let id = paths.id.flatMap { item.value(at: $0)?.text } ?? link.absoluteString
            let date = paths.date.flatMap { item.value(at: $0) }.flatMap(Self.date(from:))
            let itemSource = paths.source.flatMap { item.value(at: $0)?.text } ?? link.host ?? source
            return Headline(id: id, title: title, url: link, source: itemSource, publishedAt: ProviderSupport.published(date, fetchedAt: now))
        }
        return ProviderSupport.newestFirstUnique(headlines)
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
