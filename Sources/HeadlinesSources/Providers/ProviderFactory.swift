import FoundationEssentials
import HeadlinesCore

/// Builds the configured provider. The only place that knows every provider kind.
public enum ProviderFactory {
    public static func make(config: Config, apiKey: String?, transport: HTTPTransport,
                            feedStore: FeedStateStore, deferredWrites: DeferredWrites? = nil) -> HeadlineProvider {
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
            return feeds
        case .json:
            return JSONAPIProvider(url: config.jsonURL ?? config.baseURL ?? URL(string: "https://invalid.invalid")!,
                                   paths: config.jsonPaths, transport: transport)
        }
    }
}
