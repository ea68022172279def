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
        if args.command == "doctor" { return DoctorCommand.run(args: args, environment: environment) }
        if args.command == "start" { return StartCommand.run(args: args, environment: environment) }
        let context: AppContext
        do { context = try AppContext.load(args: args, environment: environment) } catch {
            if let status = BarCommand.configFailed(error, args: args, argv: argv, environment: environment) { return status }
            Output.error("headlines: \(error.message)")
            return 2
        }
        switch args.command {
        case "list": return ListCommand.run(context, json: args.json)
        case "open": return OpenCommand.run(context, positional: args.positional, comments: args.comments, id: args.id,
                                            fromLemonbar: args.fromLemonbar)
        case "run": return HostCommand.run(context, argv: argv)
        case "refresh": return RefreshCommand.run(context)
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

