import BarFormats
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HeadlinesCore
import HeadlinesSources
import HeadlinesHTTP
import HeadlinesDesktop
import Synchronization

/// Dispatches a subcommand. Every command returns its exit status; none calls exit itself.
enum CommandLineTool {
    static func run(arguments argv: [String], environment: [String: String]) -> Int32 {
        let status = dispatch(arguments: argv, environment: environment)
        // A command whose output did not arrive did not do its job: a script must see it.
        if let failure = Output.standardOutputFailure, status == 0 {
            // EPIPE is a reader that stopped on purpose (`| head -1`): exit 1 without a word.
            if failure != EPIPE {
                Output.error("headlines: could not write the output (\(String(cString: strerror(failure)))); check where stdout goes.")
            }
            return 1
        }
        return status
    }

    private static func dispatch(arguments argv: [String], environment: [String: String]) -> Int32 {
        let args: Arguments
        do { args = try Arguments.parse(argv) } catch {
            Output.error("headlines: \(error.message); see headlines --help.")
            return 2
        }
        if args.version { Output.print("headlines \(HeadlinesVersion.string)"); return 0 }
        if let status = help(args, argv: argv) { return status }
        // Before the config is loaded: converting a subscription file needs no config, and a broken
        // one must not stop it.
        if args.command == "import" { return ImportCommand.run(positional: args.positional, environment: environment) }
        if args.command == "doctor" { return DoctorCommand.run(args: args, environment: environment) }
        if args.command == "start" { return StartCommand.run(args: args, environment: environment) }
        let context: AppContext
        do { context = try AppContext.load(args: args, environment: environment) } catch {
            if let status = BarCommand.configFailed(error, args: args, argv: argv, environment: environment) { return status }
            Output.error("headlines: \(error.message)")
            return 2
        }
        switch args.command {
        case "fetch": return FetchCommand.run(context)
        case "list": return ListCommand.run(context, json: args.json)
        case "open": return OpenCommand.run(context, positional: args.positional, comments: args.comments, id: args.id,
                                            fromLemonbar: args.fromLemonbar)
        case "add": return AddCommand.run(context, positional: args.positional)
        case "export": return ExportCommand.run(context, opml: args.opml)
        case "demo": return DemoCommand.run(context, duration: args.duration)
        case "run": return HostCommand.run(context, argv: argv)
        case "refresh": return RefreshCommand.run(context)
        case "status": return StatusCommand.run(context, json: args.json)
        case "menu": return MenuCommand.run(context)
        case "waybar": return BarCommand.run(context, format: .waybar, pango: true, argv: argv)
        case "i3blocks": return I3blocksCommand.run(context, persist: args.persist, argv: argv)
        case "next", "prev":
            guard let count = args.positional.first.map({ Int($0) }) ?? 1, count >= 1 else {
                Output.error("headlines: \(args.command) takes how many headlines to move, such as `headlines \(args.command) 3`, or nothing for one.")
                return 2
            }
            return ShownHeadlines.rotate(context, by: args.command == "next" ? count : -count)
        case "mute", "unmute", "muted": return MuteCommand.run(context, command: args.command, positional: args.positional)
        default:
            if let format = BarFormat(rawValue: args.command) {
                // `headlines polybar` means the bar program; it sends back only what it cannot run.
                BarBinary.execIfPossible(argv, context: context)
                Output.error("headlines: \(format.rawValue) is a format of headlines-bar: run `headlines-bar \(format.rawValue) [--widget NAME]`, with no other argument.")
                return 2
            }
            Output.error("headlines: unknown command '\(args.command)'; run headlines --help for the list.")
            return 2
        }
    }
}

extension CommandLineTool {
    /// `--help`, `help [COMMAND]` (exit 0), and the mistakes around them (exit 2): no command at
    /// all, options with no command, help for a command that does not exist. nil: not about help.
    static func help(_ args: Arguments, argv: [String]) -> Int32? {
        // The parser sets `help` itself when no command was named; tell that from a real --help.
        let askedForHelp = argv.contains { $0 == "-h" || $0 == "--help" }
        if args.help && !askedForHelp {
            if argv.isEmpty {
                Output.error(Help.general)
            } else {
                Output.error("headlines: no command given (\(argv.joined(separator: " ")) needs one); see headlines --help.")
            }
            return 2
        }
        guard args.help || args.command == "help" else { return nil }
        let topic = args.command == "help" ? args.positional.first : args.command
        guard let topic, topic != "help" else { Output.print(Help.general); return 0 }
        guard let text = Help.text(for: topic) else {
            Output.error("headlines: unknown command '\(TerminalText.safe(topic))'; run headlines --help for the list.")
            return 2
        }
        Output.print(text)
        return 0
    }
}

/// Everything a command needs, resolved once: paths, the validated config, the environment.
struct AppContext {
    var environment: [String: String]
    var paths: XDGPaths
    var config: Config
    var configFile: String
    var arguments: Arguments
    /// Every widget of the config and how they share the budget (one share without widgets).
    var plan: WidgetPlan

    static func load(args: Arguments, environment: [String: String]) throws(ConfigError) -> AppContext {
        let loaded = try LoadedConfig.load(args: args, environment: environment)
        // Accepted values that look wrong: said once per command, on stderr (bars keep stdout);
        // not by the host's reload child, which would repeat them in the host's log at every reload.
        if !args.forHost {
            let launcher = LauncherMenu.configWarning(configured: loaded.config.launcher, file: loaded.file)
            for warning in loaded.config.warnings + (launcher.map { [$0] } ?? []) { Output.error("headlines: warning: \(warning)") }
        }
        return AppContext(environment: environment, paths: loaded.paths, config: loaded.config, configFile: loaded.file,
                          arguments: args, plan: loaded.plan)
    }

    var cache: HeadlineCache { HeadlineCache(path: paths.cacheFile) }
    /// The running host, as every command reaches it; /proc command lines are read by our own parser.
    var host: HostClient { HostClient(paths: paths, subcommand: { (try? Arguments.parse($0))?.command }) }
    var statusStore: RefreshStatusStore { RefreshStatusStore(path: paths.statusFile) }

    /// What a reload outside the host runs: the timeline provider on the configured source, and
    /// the tally of the key-bearing requests its transport sends.
    func timelineProvider() throws(ConfigError) -> (provider: HeadlinesTimelineProvider, tally: RequestTally) {
        let tally = RequestTally()
        let refresher = Refresher(provider: try makeProvider(tally: tally), cache: cache, statusStore: statusStore)
        var provider = HeadlinesTimelineProvider(refresher: refresher, layout: HostRunner.setup(loaded).layout,
                                                 mutedFile: StateFile(path: paths.mutedFile, what: "muted-sources"),
                                                 warn: { HostLog.warning($0) })
        provider.muteWords = KeywordMatcher(config.muteWords)
        return (provider, tally)
    }

    var loaded: LoadedConfig { LoadedConfig(paths: paths, config: config, file: configFile, plan: plan) }

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

/// Whole lines straight to the file descriptors, so a pipe (a bar, a script) sees each at once.
/// A closed or full stdout is remembered (the command then exits 1), never a signal.
enum Output {
    private static let stdoutFailure = Atomic<Int32>(0)

    /// The errno of the first write to stdout that failed, nil while every one arrived.
    static var standardOutputFailure: Int32? {
        let failure = stdoutFailure.load(ordering: .relaxed)
        return failure == 0 ? nil : failure
    }

    static func print(_ text: String, terminator: String = "\n") {
        // A server's words reach here (an API's error message in `status`, `fetch`, `refresh`):
        // no escape sequence gets through to the terminal.
        let line = terminator.isEmpty || text.hasSuffix("\n") ? text : text + terminator
        let failure = DescriptorOutput.writeAll(Array(TerminalText.withoutControls(line).utf8), to: 1)
        if failure != 0 { _ = stdoutFailure.compareExchange(expected: 0, desired: failure, ordering: .relaxed) }
    }

    /// stderr; a failure there has nowhere to be told.
    static func error(_ text: String) {
        DescriptorOutput.writeAll(Array(TerminalText.withoutControls(text.hasSuffix("\n") ? text : text + "\n").utf8), to: 2)
    }
}
