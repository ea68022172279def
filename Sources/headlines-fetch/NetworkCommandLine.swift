import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesGLib

/// The commands `headlines` hands over, with the arguments it was given.
enum NetworkCommandLine {
    static func run(arguments argv: [String], environment: [String: String]) -> Int32 {
        let args: Arguments
        do { args = try Arguments.parse(argv) } catch {
            Output.error("headlines: \(error.message); see headlines --help.")
            return 2
        }
        // Like every installed program, it names its version (packagers' smoke tests run it).
        if args.version {
            Output.print("headlines-fetch \(HeadlinesVersion.string)")
            return 0
        }
        // Before the config is loaded: converting a subscription file needs no config, and a broken
        // one must not stop it.
        if args.command == "import" { return ImportCommand.run(positional: args.positional, environment: environment) }
        // Every widget's account, not only the one a command is about by default.
        if args.command == "login" { return LoginCommand.run(args, environment: environment) }
        let context: AppContext
        do { context = try AppContext.load(args: args, environment: environment) } catch {
            Output.error("headlines: \(error.message)")
            return 2
        }
        switch args.command {
        case "fetch": return FetchCommand.run(context)
        case "add": return AddCommand.run(context, positional: args.positional)
        case "export": return ExportCommand.run(context, opml: args.opml)
        case "demo": return DemoCommand.run(context, duration: args.duration)
        case "status": return StatusCommand.run(context, json: args.json)
        case "sync-check": return SyncCheckCommand.run(context)
        default:
            Output.error("headlines-fetch runs what `headlines` hands it; run `headlines \(TerminalText.safe(args.command))` instead.")
            return 2
        }
    }
}
