import FoundationEssentials
import HeadlinesCore

/// Finds the feed of a URL for `headlines add`: the URL itself when it is a feed; else the feeds
/// its page names in `<link rel="alternate" type="application/rss+xml">` (Atom and JSON Feed
/// too), else the usual paths (`/feed`, `/rss`, `/atom.xml` ...) on its site. Every fetch goes
/// through the transport, so the usual byte and time limits hold; what the page leads to goes
/// through `links`, which keeps a page from elsewhere off this machine and its local network.
public struct FeedDiscovery: Sendable {
    /// What was found: the feed's URL (where a permanent redirect led, if one did) and its
    /// title, when it has one; `movedFrom`, the URL that redirected there for good.
    public struct Found: Sendable, Equatable {
        public var url: URL
        public var title: String?
        public var movedFrom: URL?
    }

    public static let usualPaths = ["/feed", "/rss", "/atom.xml", "/feed.xml", "/rss.xml", "/index.xml"]
    let transport: HTTPTransport
    let links: HTTPTransport

    /// `links`: for the page's feed links and the usual paths; `transport` when nil.
    public init(transport: HTTPTransport, links: HTTPTransport? = nil) {
        self.transport = transport
        self.links = links ?? transport
    }

    /// The feed for `url`, or the one sentence saying why there is none.
    public func find(_ url: URL) async -> Result<Found, ConfigError> {
        let page: HTTPResponse
        do { page = try await transport.get(HTTPRequest(url: url)) } catch let error as NewsError {
            return .failure(ConfigError(error.message(provider: url.host ?? "The site", kind: .feed).replacingAll("the feed URL in [source] feeds", with: "the URL")))
        } catch {
            return .failure(ConfigError("\(url.host ?? "The site") could not be reached: check the URL."))
        }
        guard (200...299).contains(page.status) else {
            return .failure(ConfigError("\(url.host ?? "The site") answered HTTP \(page.status): check the URL."))
        }
        if let feed = Self.feed(page, at: url) { return .success(feed) }
        // The first few, all at once: a page listing a hundred feeds costs one timeout, not a hundred.
        let linked = Array(Self.linkedFeeds(in: page.body, pageURL: url).prefix(Self.maxLinkedTried))
        var refused: [URL] = []
        if let found = await firstFeed(linked, refused: &refused) { return .success(found) }
        var site = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        site.query = nil
        site.fragment = nil
        let guesses = Self.usualPaths.compactMap { path -> URL? in site.path = path; return site.url }
        if let found = await firstFeed(guesses, refused: &refused) { return .success(found) }
        if !refused.isEmpty {
            var hosts: [String] = []
            for host in refused.compactMap(\.host) where !hosts.contains(host) { hosts.append(host) }
            let named = hosts.prefix(3).joined(separator: ", ") + (hosts.count > 3 ? " ..." : "")
            return .failure(ConfigError("\(url.absoluteString) is not a feed, and the feeds it links are on this machine or its local network (\(named)), where a page from elsewhere may not lead: add such a feed by its own URL if you trust it."))
        }
        let tried = linked.isEmpty ? "it links no feed" : "the feeds it links do not answer as feeds"
        return .failure(ConfigError("\(url.absoluteString) is not a feed, \(tried), and none of \(Self.usualPaths.joined(separator: ", ")) is one: give the feed's own URL."))
    }

    /// The page's feed links tried at most.
    static let maxLinkedTried = 4

    /// The first of `urls`, in their order, that answers as a feed; fetched concurrently. Those
    /// `links` refused as local are added to `refused`.
    private func firstFeed(_ urls: [URL], refused: inout [URL]) async -> Found? {
        guard !urls.isEmpty else { return nil }
        let answers = await links.getAll(urls.map { HTTPRequest(url: $0) })
        for (url, answer) in zip(urls, answers) {
            if case let .success(response) = answer, (200...299).contains(response.status), let feed = Self.feed(response, at: url) {
                return feed
            }
        }
        refused += zip(urls, answers).filter { $0.1 == .failure(.localNetwork) }.map(\.0)
        return nil
    }

    /// The response as a feed with at least a title or an item, or nil.
    static func feed(_ response: HTTPResponse, at url: URL) -> Found? {
        guard let document = try? FeedParser.parse(response.body, baseURL: url, contentType: response.header("content-type")) else { return nil }
        let title = document.title.map(TextCleaning.plainTitle).flatMap { $0.isEmpty ? nil : $0 }
        return Found(url: response.permanentLocation ?? url, title: title, movedFrom: response.permanentLocation.map { _ in url })
    }

    static let feedTypes: Set<String> = ["application/rss+xml", "application/atom+xml", "application/feed+json",
                                          "application/json", "application/rdf+xml", "text/xml", "application/xml"]

    /// The http(s) feed links a page names, in page order: `<link>` elements whose `rel` has
    /// `alternate` and whose `type` is a feed's, their `href` resolved against the page.
    static func linkedFeeds(in body: Data, pageURL: URL) -> [URL] {
        let bytes = Array(body.prefix(512 * 1024))
        let lower = bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        let open = Array("<link".utf8)
        var found: [URL] = []
        var i = 0
        while i + open.count <= lower.count {
            guard lower[i..<i + open.count].elementsEqual(open) else { i += 1; continue }
            let start = i + open.count
            guard let end = lower[start...].firstIndex(of: UInt8(ascii: ">")) else { break }
            i = end + 1
            let attributes = Self.attributes(String(decoding: bytes[start..<end], as: UTF8.self))
            let rel = attributes["rel"]?.lowercased().split(separator: " ") ?? []
            guard rel.contains("alternate"), let type = attributes["type"]?.lowercased().trimmed(), feedTypes.contains(type),
                  let href = attributes["href"].map(TextCleaning.decodeEntities)?.trimmed(), !href.isEmpty,
                  let url = URL(string: href, relativeTo: pageURL)?.absoluteURL, URLPolicy.isOpenable(url),
                  !found.contains(url) else { continue }
            found.append(url)
        }
        return found
    }

    /// `name="value"`, `name='value'` and `name=value` pairs of a tag, names lower-cased.
    static func attributes(_ tag: String) -> [String: String] {
        var out: [String: String] = [:]
        let chars = Array(tag)
        var i = 0
        func skipSpace() { while i < chars.count, chars[i].isWhitespace || chars[i] == "/" { i += 1 } }
        while i < chars.count {
            skipSpace()
            var name = ""
            while i < chars.count, !chars[i].isWhitespace, chars[i] != "=", chars[i] != "/" { name.append(chars[i]); i += 1 }
            while i < chars.count, chars[i].isWhitespace { i += 1 }
            guard i < chars.count, chars[i] == "=" else { if !name.isEmpty { out[name.lowercased()] = "" }; continue }
            i += 1
            while i < chars.count, chars[i].isWhitespace { i += 1 }
            var value = ""
            if i < chars.count, chars[i] == "\"" || chars[i] == "'" {
                let quote = chars[i]
                i += 1
                while i < chars.count, chars[i] != quote { value.append(chars[i]); i += 1 }
                i += 1
            } else {
                while i < chars.count, !chars[i].isWhitespace { value.append(chars[i]); i += 1 }
            }
            if !name.isEmpty, out[name.lowercased()] == nil { out[name.lowercased()] = value }
        }
        return out
    }
}
