import FoundationEssentials
import HeadlinesCore

/// Builds the configured provider. The only place that knows every provider kind.
public enum ProviderFactory {
    public static func make(config: Config, apiKey: String?, transport: HTTPTransport,
                            feedStore: FeedStateStore, deferredWrites: DeferredWrites? = nil,
                            session: SyncSession? = nil) -> HeadlineProvider {
        if config.provider.isSyncService {
            // A base-url is required when the file loads; `--provider` alone leaves none, and
            // then the provider fails with the sentence that asks for one.
            let account = config.syncAccount ?? SyncAccount(provider: config.provider, baseURL: URL(string: "https://invalid.invalid")!,
                                                            username: config.sync.username)
            return SyncProviders.make(account: account, pageSize: config.pageSize, transport: transport,
                                      session: session ?? SyncSession(token: nil, password: nil))
        }
        switch config.provider {
        case .apitube:
            var options = APITubeProvider.Options(language: config.language, country: config.country,
                                                  pageSize: config.pageSize)
            if let base = config.baseURL { options.baseURL = base }
            return APITubeProvider(options: options, apiKey: apiKey, transport: transport)
        case .newsapi:
            var options = NewsAPIProvider.Options(country: config.country.isEmpty && config.category.isEmpty
                                                  && config.query.isEmpty ? "us" : config.country,
                                                  category: config.category, query: config.query,
                                                  pageSize: config.pageSize)
            if let base = config.baseURL { options.baseURL = base }
            return NewsAPIProvider(options: options, apiKey: apiKey, transport: transport)
        case .feeds:
            var feeds = FeedProvider(feeds: config.feeds, store: feedStore, transport: transport)
            if config.pageSizeIsExplicit { feeds.maxHeadlines = config.pageSize }
            feeds.deferredWrites = deferredWrites
            feeds.intervals = config.feedIntervals
            return feeds
        case .json:
            return JSONAPIProvider(url: config.jsonURL ?? config.baseURL ?? URL(string: "https://invalid.invalid")!,
                                   paths: config.jsonPaths, key: config.jsonKey, apiKey: apiKey, userAgent: config.userAgent,
                                   transport: transport)
        case .hackernews:
            var options = HackerNewsProvider.Options(query: config.query, pageSize: config.pageSize)
            if let base = config.baseURL { options.baseURL = base }
            return HackerNewsProvider(options: options, transport: transport)
        case .reddit:
            var options = RedditProvider.Options(subreddits: config.subreddits, sort: RedditProvider.Sort(rawValue: config.sort) ?? .hot,
                                                 pageSize: config.pageSize, userAgent: config.userAgent)
            if let base = config.baseURL { options.baseURL = base }
            return RedditProvider(options: options, transport: transport)
        case .lobsters:
            var options = LobstersProvider.Options(sort: LobstersProvider.Sort(rawValue: config.sort) ?? .hottest, pageSize: config.pageSize)
            if let base = config.baseURL { options.baseURL = base }
            return LobstersProvider(options: options, transport: transport)
        case .guardian:
            var options = GuardianProvider.Options(section: config.section, query: config.query, pageSize: config.pageSize)
            if let base = config.baseURL { options.baseURL = base }
            return GuardianProvider(options: options, apiKey: apiKey, transport: transport)
        case .nyt:
            var options = NYTProvider.Options(section: config.section.isEmpty ? "home" : config.section, pageSize: config.pageSize)
            if let base = config.baseURL { options.baseURL = base }
            return NYTProvider(options: options, apiKey: apiKey, transport: transport)
        case .greader, .fever, .miniflux, .nextcloud:
            preconditionFailure("handled above")
        case .gnews:
            var options = GNewsProvider.Options(category: config.category, language: config.language, country: config.country,
                                                query: config.query, pageSize: config.pageSize)
            if let base = config.baseURL { options.baseURL = base }
            return GNewsProvider(options: options, apiKey: apiKey, transport: transport)
        }
    }
}
