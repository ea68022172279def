import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesSecrets
import HeadlinesHTTP
import HeadlinesSources

extension AppContext {
    /// The configured provider on the libcurl transport; `tally` counts its key-bearing requests.
    /// A sync service signs in with `session`, else with the password, looked up now (no host
    /// hands a token to a command).
    func makeProvider(tally: RequestTally? = nil, session given: SyncSession? = nil) throws(ConfigError) -> HeadlineProvider {
        let config = try configWithSubscriptions()
        let session = given ?? config.syncAccount.map {
            SyncSignIn.session(account: $0, settings: config.sync, environment: environment, token: nil)
        }
        return try ReloadSource.provider(config: config, environment: environment, paths: paths, tally: tally, session: session,
                                         warn: { Output.error("headlines: warning: \($0)") })
    }

    /// The config with its subscriptions read in (ReloadSource.withSubscriptions says how).
    func configWithSubscriptions(recordFailure: Bool = true) throws(ConfigError) -> Config {
        try ReloadSource.withSubscriptions(config, home: environment["HOME"], configFile: configFile, statusStore: statusStore,
                                           recordFailure: recordFailure,
                                           warn: { Output.error("headlines: warning: \($0)") })
    }
}
