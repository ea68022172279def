import FoundationEssentials

/// The parsed command line: one subcommand, its positional arguments and the options given.
public struct Arguments: Equatable, Sendable {
    public init() {}

    public var command: String = "help"
    public var positional: [String] = []
    // What each option means is said once, where CommandTable.options declares it.
    public var configPath: String?, provider: String?, baseURL: String?, widget: String?, id: String?, duration: String?
    public var help = false, version = false, json = false, verbose = false, persist = false, pango = false
    public var comments = false, opml = false, fromLemonbar = false, fromBar = false
    public var failures = 0
    public var allFeeds = false, marksOnly = false

    /// The global options again, for commands that run `headlines` themselves.
    public var passThrough: [String] {
        var out: [String] = []
        if let configPath { out += ["--config", configPath] }
        if let provider { out += ["--provider", provider] }
        if let baseURL { out += ["--base-url", baseURL] }
        if let widget { out += ["--widget", widget] }
        return out
    }

    public struct UsageError: Error { public var message: String }

    /// Options (CommandTable.options) may come before or after the subcommand; `--opt=value` and
    /// `--opt value` both work.
    public static func parse(_ argv: [String]) throws(UsageError) -> Arguments {
        var args = Arguments()
        var sawCommand = false
        var i = 0
        func value(_ name: String, inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            i += 1
            guard i < argv.count else { throw UsageError(message: "\(name) needs a value") }
            return argv[i]
        }
        while i < argv.count {
            let arg = argv[i]
            let parts = arg.split(separator: "=", maxSplits: 1).map(String.init)
            // An empty argument, or `=`, splits into nothing: it is a word like any other.
            let name = parts.first ?? arg
            let inline = parts.count > 1 ? parts[1] : nil
            if let option = CommandTable.option(named: name) {
                try option.apply(&args, option.value == nil ? "" : try value(option.long, inline: inline))
            } else if arg.hasPrefix("-") && arg.count > 1 && Int(arg) == nil {
                throw UsageError(message: "unknown option \(arg)")
            } else if !sawCommand {
                args.command = arg
                sawCommand = true
            } else {
                args.positional.append(arg)
            }
            i += 1
        }
        if !sawCommand && !args.version { args.help = true }
        return args
    }
}
