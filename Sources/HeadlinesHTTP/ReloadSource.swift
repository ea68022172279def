import FoundationEssentials
import HeadlinesCore
import HeadlinesSources

/// What a fetch reads from, made the same way by `headlines fetch` and by the host's reload child
/// (`headlines-reload`): the config with its subscriptions read in, and the configured provider on
/// the libcurl transport.
public enum ReloadSource {
    /// The configured provider on the libcurl transport; `tally` counts its key-bearing requests;
    /// `deferredWrites` takes the state writes that can wait until the caller has answered.
    public static func provider(config: Config, environment: [String: String], paths: XDGPaths, tally: RequestTally?,
                                deferredWrites: DeferredWrites? = nil, session: SyncSession? = nil,
                                warn: (String) -> Void) throws(ConfigError) -> HeadlineProvider {
        let resolved = try APIKeySource.resolve(for: config.provider, config: config, environment: environment)
        resolved.warnings.forEach(warn)
        let transport = CurlTransport(limits: TransportLimits(timeout: config.timeout), tally: tally)
        return ProviderFactory.make(config: config, apiKey: resolved.key, transport: transport,
                                    feedStore: FeedStateStore(path: paths.feedStateFile), deferredWrites: deferredWrites,
                                    session: session)
    }

    /// The config with `[source] feeds-from` read into `feeds`, afresh at each call (each fetch, each
    /// reload child), so an edited file counts at the next reload. A file that cannot be used is
    /// recorded as the reload's failure, so `status` and the bars say so as for a failing feed.
    /// `warn` gets its skipped lines (the reload child drops them: it would repeat them in the
    /// host's log at every reload, as it does not repeat config warnings).
    public static func withSubscriptions(_ config: Config, home: String?, configFile: String, statusStore: RefreshStatusStore,
                                         recordFailure: Bool = true, warn: (String) -> Void) throws(ConfigError) -> Config {
        do {
            let resolved = try FeedsFromResolver.resolve(config, home: home, configFile: configFile)
            resolved.warnings.forEach(warn)
            return resolved.config
        } catch {
            if recordFailure {
                let now = Date()
                var status = statusStore.load(now: now, warn: { _ in })
                status.recordFailure(provider: config.provider.displayName, at: now, message: error.message)
                try? statusStore.store(status)
            }
            throw error
        }
    }
}
