import FoundationEssentials

/// The parsed command line: one subcommand, its positional arguments and the options given.
public struct Arguments: Equatable, Sendable {
    public init() {}

    public var command: String = "help"
    public var positional: [String] = []
    public var configPath: String?
    public var provider: String?
    public var baseURL: String?
    public var json = false
    /// `run --verbose`: also log every entry change.
    public var verbose = false
    /// `i3blocks --persist`: the continuous form for `interval=persist`.
    public var persist = false
    /// `i3blocks --pango`: escape for a block with `markup=pango`.
    public var pango = false
    /// `headlines-host --from-bar`: started for the bars (by `headlines start`); a config that does
    /// not load is shown in the bars and waited for, instead of ending the host.
    public var fromBar = false
    /// `fetch --for-host`: the host's reload child; prints a `ReloadReport` on stdout.
    public var forHost = false
    /// `fetch --for-host --failures N`: the consecutive failures before this reload (back-off).
    public var failures = 0
    /// `demo --duration 20s`: stop after this long (default: until Ctrl-C).
    public var duration: String?
    public var help = false
    public var version = false
    /// `open --comments`: the headline's discussion page instead of its link.
    public var comments = false
    /// `export --opml`: the subscriptions as OPML.
    public var opml = false
    /// `--widget NAME`: the `[widget NAME]` a command is about.
    public var widget: String?
    /// `open --id KEY`: the headline a bar's click names (`HeadlineKey`, or the headline's id).
    public var id: String?
    /// `open --from-lemonbar`: read lemonbar's `open KEY` lines from stdin.
    public var fromLemonbar = false

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
