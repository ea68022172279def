import FoundationEssentials
import HeadlinesCore

/// Keyless headlines from RSS, Atom and JSON Feed: every configured feed is fetched with a
/// conditional GET (an unchanged feed costs a 304 and no parse), parsed by `FeedParser`, and the
/// items merged newest first with the same link collapsed to one headline. One failing feed does
/// not hide the others; each feed's last error is kept for `status`.
public struct FeedProvider: HeadlineProvider {
    public let displayName: String
    public let keyVariable: String? = nil
    public let feeds: [URL]
    public let store: FeedStateStore
    public var maxHeadlines = 40
    /// Where the feeds' state goes when it is not written at once (the reload child: after its
    /// report); nil writes it at the end of each fetch.
    public var deferredWrites: DeferredWrites?
    /// Fetch only the feeds that are due (a scheduled reload); false fetches every one (an
    /// explicit refresh, `headlines fetch`).
    public var onlyDue = false
    /// A feed's own `interval`, by its configured URL.
    public var intervals: [String: TimeInterval] = [:]
    let transport: HTTPTransport

    public init(feeds: [URL], store: FeedStateStore, transport: HTTPTransport) {
        self.feeds = feeds
        self.store = store
        self.transport = transport
        displayName = feeds.count == 1 ? "The feed \(feeds[0].host ?? feeds[0].absoluteString)" : "Feeds"
    }

    public var sourceKind: NewsError.SourceKind { .feed }

    /// Names the feed's URL, not only its host. When every feed failed the error is the first
    /// feed's, so that feed is named and the others counted.
    public func failureMessage(_ error: NewsError) -> String {
        guard let first = feeds.first else { return error.message(provider: displayName, kind: .feed) }
        let sentence = error.message(provider: "The feed \(Self.shown(first))", kind: .feed)
        guard feeds.count > 1 else { return sentence }
        let others = feeds.count - 1
        return NewsError.clause(sentence) + "; the other \(others == 1 ? "feed" : "\(others) feeds") failed too."
    }

    public func fetch(now: Date) async throws -> [Headline] {
        try await fetchWithReport(now: now).headlines
    }

    /// Every feed due at once (every configured one unless `onlyDue`); a failing feed beside
    /// working ones is a partial failure, not an error. A feed that is not due costs no request
    /// and keeps its stored headlines in the merge.
    public func fetchWithReport(now: Date) async throws -> FetchReport {
        let loaded = store.load(now: now, warn: { _ in })
        var state = loaded
        let fetched = feeds.filter { !onlyDue || Self.isDue(state.feeds[$0.absoluteString], now: now) }
        // Every feed in one batch: the transport fetches them concurrently, so N hung feeds cost
        // one timeout, not N. Each result is recorded whatever the others do.
        let requests = fetched.map { Self.request($0, previous: state.feeds[$0.absoluteString]) }
        let responses = requests.isEmpty ? [] : await transport.getAll(requests)
        var results: [(URL, Result<FeedOutcome, NewsError>)] = []
        for (feed, response) in zip(fetched, responses) {
            let previous = state.feeds[feed.absoluteString]
            var entry = previous ?? FeedState()
            let result = Result { try outcome(feed, response: response.get(), previous: previous, now: now) }
                .mapError { $0 as? NewsError ?? .unreachable(detail: "unexpected error") }
            record(response, outcome: try? result.get(), of: feed, in: &entry, now: now)
            state.feeds[feed.absoluteString] = entry
            results.append((feed, result))
        }
        var firstError: NewsError?
        var partialFailures: [String] = []
        for (feed, result) in results {
            var entry = state.feeds[feed.absoluteString] ?? FeedState()
            switch result {
            case let .success(outcome):
                entry.etag = outcome.etag ?? entry.etag
                entry.lastModified = outcome.lastModified ?? entry.lastModified
                // Only what the feed could show: a 65,000-item feed keeps `maxHeadlines`, so
                // feeds.json stays small and `status` reads it at once.
                entry.headlines = Array(Self.merge(outcome.headlines).prefix(maxHeadlines))
                entry.lastSuccess = now
                entry.lastError = nil
                entry.lastErrorAt = nil
            case let .failure(error):
                let gone = entry.goneAt == now
                entry.lastError = gone ? Self.goneSentence(feed) : error.message(provider: "The feed \(Self.shown(feed))", kind: .feed)
                entry.lastErrorAt = now
                partialFailures.append(gone ? Self.goneSentence(feed) : Self.partialFailure(entry.lastError ?? "", error: error))
                firstError = firstError ?? error
            }
            state.feeds[feed.absoluteString] = entry
        }
        // Forget feeds no longer configured.
        state.feeds = state.feeds.filter { key, _ in feeds.contains { $0.absoluteString == key } }
        // A reload that fetched nothing and forgot nothing leaves the file as it is.
        if state != loaded {
            if let deferredWrites {
                let (store, finalState) = (self.store, state)
                deferredWrites.add { try? store.store(finalState) }
            } else {
                try? store.store(state)
            }
        }
        // Each headline names its feed here, not when parsed: feeds.json written before headlines
        // carried it names it too.
        let perFeed = feeds.compactMap { feed in
            state.feeds[feed.absoluteString].flatMap { $0.lastError == nil && $0.goneAt == nil ? $0.headlines : nil }?
                .map { var headline = $0; headline.feed = feed.absoluteString; return headline }
        }
        if perFeed.allSatisfy(\.isEmpty), let firstError, results.allSatisfy({ if case .failure = $0.1 { return true } else { return false } }) {
            throw firstError
        }
        return FetchReport(headlines: Self.fairMerge(perFeed, limit: maxHeadlines), partialFailures: partialFailures,
                           nextDue: Self.nextDue(of: feeds.map { state.feeds[$0.absoluteString] ?? FeedState() }, now: now))
    }

    /// A feed URL as messages show it: without any user:password part, which is a credential.
    static func shown(_ feed: URL) -> String {
        guard feed.user != nil || feed.password != nil,
              var parts = URLComponents(url: feed, resolvingAgainstBaseURL: false) else { return feed.absoluteString }
        parts.user = nil
        parts.password = nil
        return parts.string ?? feed.host ?? "a feed"
    }

    /// One sentence for a feed that failed beside others: its error, and what to do about it.
    static func partialFailure(_ message: String, error: NewsError) -> String {
        let fix = switch error {
        case .badRequest, .forbidden, .malformedResponse, .noHeadlines, .insecureTransport, .responseTooLarge:
            "fix its URL or remove it from [source] feeds"
        default:
            "it is tried again at the next reload"
        }
        let sentence = NewsError.clause(message)
        return TerminalText.safe(sentence) + "; the other feeds were read, and \(fix)."
    }

    /// Newest first; the same link (or id) from several feeds kept once, the newest copy.
    public static func merge(_ headlines: [Headline]) -> [Headline] {
        var seenLinks = Set<String>()
        var seenIDs = Set<String>()
        return headlines.sorted { $0.publishedAt > $1.publishedAt }.filter {
            seenLinks.insert($0.url.absoluteString).inserted && seenIDs.insert($0.id).inserted
        }
    }

    /// At most `limit` headlines of several feeds, newest first, with each feed's fair share: the
    /// slots go round the feeds one at a time, so a feed that publishes fifty items an hour
    /// keeps a slower feed's headlines in the list, and a feed with fewer than its share leaves
    /// the rest to the others. The same link from several feeds is kept once, the newest copy.
    static func fairMerge(_ feeds: [[Headline]], limit: Int) -> [Headline] {
        let unique = merge(feeds.flatMap { $0 })
        var kept = Set(unique.map { CopyKey($0) })
        var groups = feeds.map { feed in merge(feed).filter { kept.remove(CopyKey($0)) != nil } }
        var taken = [Int](repeating: 0, count: groups.count)
        var total = 0
        while total < limit {
            var progressed = false
            for i in groups.indices where taken[i] < groups[i].count && total < limit {
                taken[i] += 1
                total += 1
                progressed = true
            }
            if !progressed { break }
        }
        for i in groups.indices { groups[i] = Array(groups[i].prefix(taken[i])) }
        return merge(groups.flatMap { $0 })
    }

    /// One copy of a headline, as `fairMerge` tells copies apart.
    private struct CopyKey: Hashable {
        let link: String
        let id: String
        let published: Date
        init(_ headline: Headline) { link = headline.url.absoluteString; id = headline.id; published = headline.publishedAt }
    }

    private func outcome(_ feed: URL, response: HTTPResponse, previous: FeedState?, now: Date) throws -> FeedOutcome {
        if response.status == 304, let previous {
            return FeedOutcome(headlines: previous.headlines, etag: nil, lastModified: nil, period: previous.period)
        }
        guard (200...299).contains(response.status) else {
            throw ProviderSupport.error(status: response.status, code: nil, message: nil, response: response, now: now)
        }
        let document: FeedDocument
        do { document = try FeedParser.parse(response.body, baseURL: feed, contentType: response.header("Content-Type")) } catch {
            let page = ProviderSupport.looksLikeHTML(response.body, contentType: response.header("Content-Type"))
            throw NewsError.malformedResponse(detail: page ? "an HTML page, HTTP \(response.status)" : error.reason)
        }
        let source = document.title.map(TextCleaning.plainTitle).flatMap { $0.isEmpty ? nil : $0 } ?? feed.host ?? feed.absoluteString
        let headlines = document.items.compactMap { Self.headline($0, source: source, now: now)?.bounded() }
        return FeedOutcome(headlines: headlines, etag: response.header("ETag"), lastModified: response.header("Last-Modified"),
                           period: document.period)
    }

    static func headline(_ item: FeedItem, source: String, now: Date) -> Headline? {
        guard let title = item.title.map(TextCleaning.plainTitle), !title.isEmpty,
              let link = item.link, URLPolicy.isOpenable(link) else { return nil }
        let summary = item.summary.map(TextCleaning.plainSummary).flatMap { $0.isEmpty ? nil : $0 }
        return Headline(id: item.id.flatMap { $0.isEmpty ? nil : $0 } ?? link.absoluteString, title: title, url: link,
                        source: source, publishedAt: ProviderSupport.published(item.published ?? item.updated, fetchedAt: now),
                        imageURL: item.imageURL.flatMap { URLPolicy.isOpenable($0) ? $0 : nil }, summary: summary)
    }
}

