import FoundationEssentials

/// The parsed command line: one subcommand, its positional arguments and the options given.
struct Arguments: Equatable {
    var command: String = "help"
    var positional: [String] = []
    var configPath: String?
    var provider: String?
    var baseURL: String?
    var json = false
    /// `run --verbose`: also log every entry change.
    var verbose = false
    /// `i3blocks --persist`: the continuous form for `interval=persist`.
    var persist = false
    /// `i3blocks --pango`: escape for a block with `markup=pango`.
    var pango = false
    /// `demo --duration 20s`: stop after this long (default: until Ctrl-C).
    var duration: String?
    var help = false
    var version = false

    /// The global options again, for commands that run `headlines` themselves.
    var passThrough: [String] {
        var out: [String] = []
        if let configPath { out += ["--config", configPath] }
        if let provider { out += ["--provider", provider] }
        if let baseURL { out += ["--base-url", baseURL] }
        return out
    }

    struct UsageError: Error { var message: String }

    /// Options may come before or after the subcommand; `--opt=value` and `--opt value` both work.
    static func parse(_ argv: [String]) throws(UsageError) -> Arguments {
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
            let name = parts[0]
            let inline = parts.count > 1 ? parts[1] : nil
            switch name {
            case "-h", "--help": args.help = true
            case "-V", "--version": args.version = true
            case "--json": args.json = true
            case "-v", "--verbose": args.verbose = true
            case "--persist": args.persist = true
            case "--pango": args.pango = true
            case "--config", "-c": args.configPath = try value("--config", inline: inline)
            case "--provider": args.provider = try value("--provider", inline: inline)
            case "--base-url": args.baseURL = try value("--base-url", inline: inline)
            case "--duration": args.duration = try value("--duration", inline: inline)
            default:
                if arg.hasPrefix("-") && arg.count > 1 && Int(arg) == nil {
                    throw UsageError(message: "unknown option \(arg)")
                }
                if !sawCommand { args.command = arg; sawCommand = true } else { args.positional.append(arg) }
            }
            i += 1
        }
        if !sawCommand && !args.version { args.help = true }
        return args
    }
}
