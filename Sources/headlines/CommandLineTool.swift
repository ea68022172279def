import BarFormats
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HeadlinesCore
import HeadlinesCommandLine
import HeadlinesDesktop
import HeadlinesGLib
import Synchronization

/// Dispatches a subcommand. Every command returns its exit status; none calls exit itself.
enum CommandLineTool {
    static func run(arguments argv: [String], environment: [String: String]) -> Int32 {
        Output.exitStatus(dispatch(arguments: argv, environment: environment))
    }

    private static func dispatch(arguments argv: [String], environment: [String: String]) -> Int32 {
        let args: Arguments
        do { args = try Arguments.parse(argv) } catch {
            Output.error("headlines: \(error.message); see headlines --help.")
            return 2
        }
        if args.version { Output.print("headlines \(HeadlinesVersion.string)"); return 0 }
        if let status = help(args, argv: argv) { return status }
        if NetworkCommands.names.contains(args.command) { return NetworkCommands.hand(argv, environment: environment) }
        // Bars are headlines-bar's: it never hands them back, and a config error is the host's
        // to show in them.
        if args.command == "waybar" || args.command == "i3blocks" || BarFormat(rawValue: args.command) != nil {
            return BarProgram.replace(argv, environment: environment)
        }
        if args.command == "doctor" { return DoctorCommand.run(args: args, environment: environment) }
        if args.command == "start" { return StartCommand.run(args: args, environment: environment) }
        let context: AppContext
        do { context = try AppContext.load(args: args, environment: environment) } catch {
            Output.error("headlines: \(error.message)")
            return 2
        }
        switch args.command {
        case "list": return ListCommand.run(context, json: args.json)
        case "open": return OpenCommand.run(context, positional: args.positional, comments: args.comments, id: args.id,
                                            fromLemonbar: args.fromLemonbar)
        case "run": return HostCommand.run(context)
        case "refresh": return RefreshCommand.run(context)
        case "menu": return MenuCommand.run(context)
        case "next", "prev": return StartCommand.turn(context, command: args.command)
        case "mute", "unmute", "muted": return MuteCommand.run(context, command: args.command, positional: args.positional)
        default:
            Output.error("headlines: unknown command '\(TerminalText.safe(args.command))'; run headlines --help for the list.")
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

