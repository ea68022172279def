import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesDesktop
import HeadlinesGLib
import HeadlinesHTTP
import HeadlinesSources

/// `headlines add URL`: the feed at URL, or the one its page links to, added to `[source] feeds`
/// (or the `--widget` group's) in the config file, whose comments and layout stay as they were.
enum AddCommand {
    static func run(_ context: AppContext, positional: [String]) -> Int32 {
        // An international host in punycode: libcurl refuses the percent-encoded one URL leaves.
        guard positional.count == 1, let given = URL(string: positional[0]), let url = URL(string: ImportCommand.written(given)),
              URLPolicy.isOpenable(url) else {
            Output.error("headlines: add takes one http or https URL, a feed's or a site's: headlines add https://example.com/.")
            return 2
        }
        let transport = CurlTransport(limits: TransportLimits(timeout: context.config.timeout))
        // The rule notification images follow: a page on this machine or its local network may
        // lead there (the user's own server); a page from elsewhere may not.
        let links = LocalNetwork.holdsAll([url]) ? transport : transport.outsideOnly()
        let found: FeedDiscovery.Found
        switch blockingAwait({ await FeedDiscovery(transport: transport, links: links).find(url) }) {
        case let .success(feed): found = feed
        case let .failure(error):
            Output.error("headlines: \(TerminalText.safe(error.message))")
            return 1
        }
        let name = found.title.map { TerminalText.safe($0) + " " } ?? ""
        let group = context.arguments.widget.map { "widget \($0)" } ?? "source"
        let written: Bool
        do {
            // The feeds as the file has them now, not as it was when the discovery started.
            written = try KeyFileEditor.set(group: group, key: "feeds", path: context.configFile) { () throws(ConfigError) -> String? in
                let feeds = try LoadedConfig.load(args: context.arguments, environment: context.environment).config.feeds
                guard !feeds.contains(found.url) else { return nil }
                return (feeds + [found.url]).map(ImportCommand.written).joined(separator: ";")
            }
        } catch {
            Output.error("headlines: \(error.message)")
            return 1
        }
        // A feed its publisher moved for good is kept at its new address, and the sentence says why
        // that is not the URL given.
        let moved = found.movedFrom.map { ": \($0.absoluteString) has moved there for good" } ?? ""
        guard written else {
            Output.print("\(name)(\(found.url.absoluteString)) is already in \(context.configFile)\(moved).")
            return 0
        }
        Output.print("Added \(name)(\(found.url.absoluteString)) to [\(group)] feeds in \(context.configFile)\(moved).")
        if context.config.provider != .feeds {
            Output.error("headlines: warning: the provider is \(context.config.provider.displayName), which does not read feeds: set [source] provider = feeds to read them.")
        }
        return 0
    }
}

/// `headlines export --opml`: every feed read (the config's and its `feeds-from` file's) as OPML.
enum ExportCommand {
    static func run(_ context: AppContext, opml: Bool) -> Int32 {
        guard opml else {
            Output.error("headlines: export needs a format: headlines export --opml.")
            return 2
        }
        let config: Config
        do { config = try context.configWithSubscriptions(recordFailure: false) } catch {
            Output.error("headlines: \(error.message)")
            return 1
        }
        Output.print(OPMLWriter.document(config.feeds), terminator: "")
        return 0
    }
}
