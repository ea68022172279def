import FoundationEssentials
import HeadlinesCore

/// Turns `[source] feeds-from` into feed URLs, where feeds are fetched: `headlines fetch` and the
/// host's reload child call it each time they build the provider, so an edited file counts at
/// the next reload. The resident host never calls it (it does not link HeadlinesSources).
public enum FeedsFromResolver {
    /// The config with `feeds` followed by the file's feeds (the tagged ones when tags are
    /// given), each URL once, in order; plus one warning per skipped line or outline. A config
    /// without `feeds-from`, or on another provider, comes back unchanged and the file unread.
    /// `configFile` names the config in errors; `home` expands a leading `~` or `$HOME`.
    public static func resolve(_ config: Config, home: String?, configFile: String,
                               fileSystem: any StateFileSystem = PosixFileSystem()) throws(ConfigError) -> (config: Config, warnings: [String]) {
        guard let from = config.feedsFrom, config.provider == .feeds else { return (config, []) }
        let setting = "[source] feeds-from in \(configFile)"
        let path = from.expandedPath(home: home)
        let chosen: [Subscription]
        let warnings: [String]
        do {
            let file = try SubscriptionFile.read(path: path, setting: setting, fileSystem: fileSystem)
            chosen = try file.selecting(tags: from.tags, name: path, setting: setting)
            warnings = file.warnings
        } catch {
            throw ConfigError(error.message)
        }
        var resolved = config
        resolved.feeds = uniqueInOrder(config.feeds + chosen.map(\.url))
        return (resolved, warnings)
    }

    static func uniqueInOrder(_ urls: [URL]) -> [URL] {
        var seen = Set<String>()
        return urls.filter { seen.insert($0.absoluteString).inserted }
    }
}
