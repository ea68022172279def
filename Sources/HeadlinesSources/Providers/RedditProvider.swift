import FoundationEssentials
import HeadlinesCore

/// Reddit's public listings, keyless: `GET {base}/r/a+b/{sort}.json` (the front page,
/// `{base}/{sort}.json`, when no subreddit is set). Reddit answers 429 to generic User-Agents, so
/// one that names this program is sent; dates are epoch seconds, and image links arrive
/// HTML-escaped (`&amp;`). Stickied posts (a subreddit's standing rules and megathreads) are left out.
public struct RedditProvider: HeadlineProvider {
    public enum Sort: String, Sendable, Equatable { case hot, new, top }

    public struct Options: Sendable, Equatable {
        public var baseURL: URL
        public var subreddits: [String]
        public var sort: Sort
        public var pageSize: Int
        public var userAgent: String
        public init(baseURL: URL = URL(string: "https://www.reddit.com")!, subreddits: [String] = [], sort: Sort = .hot,
                    pageSize: Int = 10, userAgent: String? = nil) {
            self.baseURL = baseURL
            self.subreddits = subreddits
            self.sort = sort
            self.pageSize = pageSize
            self.userAgent = userAgent ?? RedditProvider.defaultUserAgent
        }
    }

    /// Reddit's asked-for form, `platform:app:version (description)`.
    public static let defaultUserAgent = "linux:headlines:\(HeadlinesVersion.string) (desktop headline notifier)"
    public let displayName = "Reddit"
    public let keyVariable: String? = nil
    public let noHeadlinesSetting = "[source] subreddits and sort"
    public var options: Options
    let transport: HTTPTransport

    public init(options: Options, transport: HTTPTransport) {
        self.options = options
        self.transport = transport
    }

    public func request() -> HTTPRequest {
        let listing = options.subreddits.isEmpty ? "" : "r/" + options.subreddits.joined(separator: "+") + "/"
        var items = [URLQueryItem(name: "limit", value: String(options.pageSize + 2))]
        if options.sort == .top { items.append(URLQueryItem(name: "t", value: "day")) }
        return HTTPRequest(url: ProviderSupport.url(options.baseURL, path: listing + options.sort.rawValue + ".json", items: items),
                           headers: ["Accept": "application/json", "User-Agent": options.userAgent])
    }

    public func fetch(now: Date) async throws -> [Headline] {
        try await ProviderSupport.fetch(request(), key: nil, transport: transport, pageSize: options.pageSize, now: now, decode: Self.decode)
    }

    /// A Listing's `data.children[].data`, or `{"message": ..., "error": N, "reason": ...}`.
    public static func decode(_ response: HTTPResponse, now: Date) throws(NewsError) -> [Headline] {
        let root = ProviderSupport.json(response)
        guard (200...299).contains(response.status) else {
            throw ProviderSupport.error(status: response.status, code: root?.value(at: "reason")?.text,
                                        message: root?.value(at: "message")?.text, response: response, now: now)
        }
        guard case let .array(children)? = root?.value(at: "data.children") else {
            throw .malformedResponse(detail: ProviderSupport.describeUndecodable(response.body, status: response.status))
        }
        let posts = children.compactMap { child -> Headline? in
            guard child.value(at: "kind")?.text == "t3", let post = child.value(at: "data") else { return nil }
            return headline(post, now: now)
        }
        return ProviderSupport.newestFirstUnique(onePerLink(posts))
    }

    /// One post per link, the one Reddit lists first: the same story is often posted to several
    /// subreddits of one listing (the front page, `r/a+b`), and each copy would otherwise be
    /// another headline and another notification. Its id is the least of its copies' ids, so
    /// that Reddit listing the copies in another order names the same story (and the seen set
    /// does not notify it again). A self post's link is its own discussion page, so self posts
    /// are never merged.
    static func onePerLink(_ posts: [Headline]) -> [Headline] {
        var least: [String: String] = [:]
        for post in posts { least[post.url.absoluteString] = min(least[post.url.absoluteString] ?? post.id, post.id) }
        var seen = Set<String>()
        return posts.filter { seen.insert($0.url.absoluteString).inserted }.map { post in
            var post = post
            post.id = least[post.url.absoluteString] ?? post.id
            return post
        }
    }

    static let site = "https://www.reddit.com"

    static func headline(_ post: JSONValue, now: Date) -> Headline? {
        if case .bool(true)? = post.value(at: "stickied") { return nil }
        guard let title = ProviderSupport.title(post.value(at: "title")?.text),
              let permalink = post.value(at: "permalink")?.text, permalink.hasPrefix("/"),
              let comments = ProviderSupport.link(site + permalink) else { return nil }
        let link = ProviderSupport.unescapedLink(post.value(at: "url")?.text) ?? comments
        let image = ProviderSupport.unescapedLink(post.value(at: "preview.images.0.source.url")?.text)
            ?? ProviderSupport.unescapedLink(post.value(at: "thumbnail")?.text)
        let subreddit = post.value(at: "subreddit_name_prefixed")?.text ?? post.value(at: "subreddit")?.text.map { "r/" + $0 }
        let id = post.value(at: "name")?.text ?? comments.absoluteString
        return Headline(id: id, title: title, url: link, source: subreddit ?? "Reddit",
                        publishedAt: ProviderSupport.published(post.value(at: "created_utc").flatMap(JSONAPIProvider.date(from:)), fetchedAt: now),
                        imageURL: image, summary: ProviderSupport.summary(post.value(at: "selftext")?.text), commentsURL: comments)
    }

    /// Reddit's refusals are about the subreddits, not a key or a plan.
    public func failureMessage(_ error: NewsError) -> String {
        switch error {
        case .forbidden(nil, nil):
            // Reddit's block page (HTML, no JSON reason): it refuses some networks and User-Agents.
            return "Reddit blocked the request (HTTP 403): set [source] user-agent to one naming you, or try again later."
        case .forbidden, .invalidKey:
            return "Reddit refused the listing\(error.serverDetail): check [source] subreddits (a private, quarantined or banned subreddit cannot be read)."
        case let .badRequest(status, _, _) where status == 404:
            return "Reddit has no such listing (404)\(error.serverDetail): check [source] subreddits and sort."
        case .rateLimited:
            return String(error.message(provider: displayName, kind: sourceKind).dropLast()) + ", or set [source] user-agent to one naming you."
        default:
            return error.message(provider: displayName, keyVariable: keyVariable, kind: sourceKind)
        }
    }
}
