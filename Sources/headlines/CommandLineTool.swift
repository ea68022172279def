import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HeadlinesCore
import HeadlinesHTTP
import HeadlinesDesktop

/// Dispatches a subcommand. Every command returns its exit status; none calls exit itself.
enum CommandLineTool {
    static func run(arguments argv: [String], environment: [String: String]) -> Int32 {
        let args: Arguments
        do { args = try Arguments.parse(argv) } catch {
            Output.error("headlines: \(error.message); see headlines --help.")
            return 2
        }
        if args.version { Output.print("headlines \(HeadlinesVersion.string)"); return 0 }
        if args.help || args.command == "help" {
            let topic = args.command == "help" ? args.positional.first : args.command
            Output.print(topic.flatMap(Help.text(for:)) ?? Help.general)
            return 0
        }
        let context: AppContext
        do { context = try AppContext.load(args: args, environment: environment) } catch {
            Output.error("headlines: \(error.message)")
            return 2
        }
        switch args.command {
        case "fetch": return FetchCommand.run(context)
        case "list": return ListCommand.run(context, json: args.json)
        case "open": return OpenCommand.run(context, positional: args.positional)
        case "demo": return DemoCommand.run(context, duration: args.duration)
        case "run": return HostCommand.run(context)
        case "refresh": return RefreshCommand.run(context)
        case "status": return StatusCommand.run(context, json: args.json)
        case "menu": return MenuCommand.run(context)
        case "waybar": return BarCommand.run(context, format: .waybar, pango: true)
        case "i3blocks": return I3blocksCommand.run(context, persist: args.persist)
        case "next": return ShownHeadlines.rotate(context, by: 1)
        case "prev": return ShownHeadlines.rotate(context, by: -1)
        case "mute", "unmute", "muted": return MuteCommand.run(context, command: args.command, positional: args.positional)
        default:
            Output.error("headlines: unknown command '\(args.command)'; run headlines --help for the list.")
            return 2
        }
    }
}

/// Everything a command needs, resolved once: paths, the validated config, the environment.
struct AppContext {
    var environment: [String: String]
    var paths: XDGPaths
    var config: Config
    var configFile: String
    var arguments: Arguments

    static func load(args: Arguments, environment: [String: String]) throws(ConfigError) -> AppContext {
        let paths = XDGPaths(environment: environment)
        let file = args.configPath ?? paths.configFile
        var config: Config
        if let groups = try KeyFileReader.read(path: file) {
            config = try Config.parse(groups: groups, file: file)
        } else if args.configPath != nil {
            throw ConfigError("\(file) does not exist; check the --config path.")
        } else {
            config = Config()
        }
        config.provider = config.resolvedProvider(environment: environment)
        config.providerIsExplicit = true
        if let name = args.provider {
            guard let provider = Config.Provider(rawValue: name.lowercased()) else {
                throw ConfigError("--provider '\(name)' is not known; use one of \(Config.Provider.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            config.provider = provider
        }
        if let base = args.baseURL {
            guard let url = URL(string: base), URLPolicy.isOpenable(url) else {
                throw ConfigError("--base-url '\(base)' is not an http or https URL; give one such as https://api.apitube.io.")
            }
            config.baseURL = url
        }
        return AppContext(environment: environment, paths: paths, config: config, configFile: file, arguments: args)
    }

    var cache: HeadlineCache { HeadlineCache(path: paths.cacheFile) }
    /// The running host, as every command reaches it; /proc command lines are read by our own parser.
    var host: HostClient { HostClient(paths: paths, subcommand: { (try? Arguments.parse($0))?.command }) }
    var statusStore: RefreshStatusStore { RefreshStatusStore(path: paths.statusFile) }

    /// The host's setup from this context: the provider, its timeline provider and the budget.
    func hostSetup() throws(ConfigError) -> HostSetup {
        let tally = RequestTally()
        let refresher = Refresher(provider: try makeProvider(tally: tally), cache: cache, statusStore: statusStore)
        var timelineProvider = HeadlinesTimelineProvider(refresher: refresher, interval: config.interval,
                                                         rotate: config.rotate,
                                                         mutedFile: StateFile(path: paths.mutedFile, what: "muted-sources"),
                                                         warn: { HostLog.warning($0) })
        timelineProvider.rotationTail = config.timeout + config.rotate
        return HostSetup(providerName: config.provider.displayName, provider: timelineProvider,
                         scheduler: ReloadScheduler(budget: RefreshBudget(dailyLimit: config.dailyBudget)),
                         interval: config.interval, tally: tally)
    }

    /// The configured provider on the libcurl transport; `tally` counts its key-bearing requests.
    func makeProvider(tally: RequestTally? = nil) throws(ConfigError) -> HeadlineProvider {
        let resolved = try APIKeySource.resolve(for: config.provider, config: config, environment: environment)
        resolved.warnings.forEach { Output.error("headlines: warning: \($0)") }
        let transport = CurlTransport(limits: TransportLimits(timeout: config.timeout), tally: tally)
        return ProviderFactory.make(config: config, apiKey: resolved.key, transport: transport,
                                    feedStore: FeedStateStore(path: paths.feedStateFile))
    }
}

/// Whole lines straight to the file descriptors, so a pipe (a bar, a script) sees each at once.
enum Output {
    static func print(_ text: String, terminator: String = "\n") {
        write(terminator.isEmpty || text.hasSuffix("\n") ? text : text + terminator, to: 1)
    }

    static func error(_ text: String) {
        write(text.hasSuffix("\n") ? text : text + "\n", to: 2)
    }

    /// One write(2) for the whole text where the pipe takes it; a broken pipe drops the rest.
    private static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return }
            bytes = bytes.dropFirst(n)
        }
    }
}
