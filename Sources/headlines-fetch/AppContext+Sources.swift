import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesHTTP
import HeadlinesSources

extension AppContext {
    /// The configured provider on the libcurl transport; `tally` counts its key-bearing requests.
    func makeProvider(tally: RequestTally? = nil) throws(ConfigError) -> HeadlineProvider {
        try ReloadSource.provider(config: try configWithSubscriptions(), environment: environment, paths: paths, tally: tally,
                                  warn: { Output.error("headlines: warning: \($0)") })
    }

    /// The config with its subscriptions read in (ReloadSource.withSubscriptions says how).
    func configWithSubscriptions(recordFailure: Bool = true) throws(ConfigError) -> Config {
        try ReloadSource.withSubscriptions(config, home: environment["HOME"], configFile: configFile, statusStore: statusStore,
                                           recordFailure: recordFailure,
                                           warn: { Output.error("headlines: warning: \($0)") })
    }
}
