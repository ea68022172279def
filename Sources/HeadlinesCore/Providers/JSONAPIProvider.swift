import Foundation

/// Any JSON API as a headline source (the seeds' jsonplaceholder widget): a URL plus dotted key
/// paths to the list and, inside each item, the title, link, date and id. A link can also be
/// built from a template such as `https://example.com/posts/{id}` for APIs that give only ids.
public struct JSONAPIProvider: HeadlineProvider {
    public struct Paths: Sendable, Equatable {
        public var items: String          // "" = the document is the list
        public var title: String
        public var link: String?
        public var linkTemplate: String?  // "{id}" (or "{KEY.PATH}") is replaced by that value
        public var date: String?
        public var id: String?
        public var source: String?

        public init(items: String = "", title: String = "title", link: String? = "url", linkTemplate: String? = nil,
                    date: String? = nil, id: String? = "id", source: String? = nil) {
            self.items = items
            self.title = title
            self.link = link
            self.linkTemplate = linkTemplate
            self.date = date
            self.id = id
            self.source = source
        }
    }

    public let displayName: String
    public let keyVariable: String? = nil
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
        guard let root = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
            throw .malformedResponse(detail: ProviderSupport.describeUndecodable(body, status: 200))
        }
        guard let list = value(at: paths.items, in: root) as? [Any] else {
            throw .malformedResponse(detail: "no list at \(paths.items.isEmpty ? "the top level" : "'\(paths.items)'")")
        }
        let headlines = list.compactMap { item -> Headline? in
            guard let title = string(value(at: paths.title, in: item)).map(TextCleaning.plainTitle), !title.isEmpty else { return nil }
            var link = paths.link.flatMap { ProviderSupport.link(string(value(at: $0, in: item))) }
            if link == nil, let template = paths.linkTemplate { link = ProviderSupport.link(fill(template, from: item)) }
            guard let link else { return nil }
            let id = paths.id.flatMap { string(value(at: $0, in: item)) } ?? link.absoluteString
            let date = paths.date.flatMap { string(value(at: $0, in: item)) }.flatMap { ISO8601.parse($0) ?? FeedDates.parse($0) }
            let itemSource = paths.source.flatMap { string(value(at: $0, in: item)) } ?? link.host ?? source
            return Headline(id: id, title: title, url: link, source: itemSource, publishedAt: date ?? now)
        }
        return ProviderSupport.newestFirstUnique(headlines)
    }

    /// The value at a dotted path ("data.items", "attributes.title", "list.0.name").
    static func value(at path: String, in root: Any) -> Any? {
        guard !path.isEmpty else { return root }
        var current: Any? = root
        for key in path.split(separator: ".") {
            if let dict = current as? [String: Any] { current = dict[String(key)] }
            else if let array = current as? [Any], let i = Int(key), array.indices.contains(i) { current = array[i] }
            else { return nil }
        }
        return current
    }

    static func string(_ value: Any?) -> String? {
        switch value {
        case let s as String: return s
        case let n as NSNumber: return n.stringValue
        default: return nil
        }
    }

    static func fill(_ template: String, from item: Any) -> String? {
        var out = template
        while let open = out.range(of: "{"), let close = out.range(of: "}", range: open.upperBound..<out.endIndex) {
            let key = String(out[open.upperBound..<close.lowerBound])
            guard let v = string(value(at: key, in: item)),
                  let escaped = v.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else { return nil }
            out.replaceSubrange(open.lowerBound..<close.upperBound, with: escaped)
        }
        return out
    }
}
