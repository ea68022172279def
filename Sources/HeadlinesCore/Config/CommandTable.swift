import FoundationEssentials

/// Every command and option of `headlines`, declared once: `Arguments.parse` reads the options
/// from it, `headlines --help` and `help COMMAND` are rendered from it, `headlines` hands its
/// `.fetch` commands to headlines-fetch, and CommandTableTests hold the shell completions and
/// the man page to it. The commands themselves are in CommandTable+Commands.swift.
public enum CommandTable {
    /// The program that runs a command: `headlines` itself, or headlines-fetch, the one that
    /// links libcurl and libxml2.
    public enum Program: Sendable { case cli, fetch }

    public struct Command: Sendable {
        public var name: String
        /// Other names that run it and share its help (`prev` for `next`).
        public var aliases: [String]
        /// Its names and arguments as `headlines --help` lists them.
        public var synopsis: String
        public var summary: String
        /// `help NAME`; nil for `help` itself and the internal commands.
        public var help: String?
        public var program: Program
        /// false: the programs run it themselves; no help, completion or manual offers it.
        public var isPublic: Bool
        public var names: [String] { [name] + aliases }

        init(_ name: String, synopsis: String? = nil, aliases: [String] = [], program: Program = .cli,
             internal isInternal: Bool = false, _ summary: String, help: String?) {
            (self.name, self.aliases, self.synopsis, self.summary) = (name, aliases, synopsis ?? name, summary)
            (self.help, self.program, self.isPublic) = (help, program, !isInternal)
        }
    }

    public struct Option: Sendable {
        /// Short name first, as `--help` shows them (`-c, --config`).
        public var names: [String]
        /// The value's placeholder (`FILE`); nil for a flag.
        public var value: String?
        /// The commands it is for; empty for a global option.
        public var commands: [String]
        public var summary: String
        public var isPublic: Bool
        /// Records it in the parsed arguments, with its value ("" for a flag).
        let apply: @Sendable (inout Arguments, String) throws(Arguments.UsageError) -> Void
        public var long: String { names[names.count - 1] }

        init(_ names: [String], value: String? = nil, for commands: [String] = [], internal isInternal: Bool = false, _ summary: String,
             apply: @escaping @Sendable (inout Arguments, String) throws(Arguments.UsageError) -> Void) {
            (self.names, self.value, self.commands, self.summary) = (names, value, commands, summary)
            (self.isPublic, self.apply) = (!isInternal, apply)
        }
    }

    /// Options may come before or after the command, so the parser accepts each for every command;
    /// `commands` says where help and completions offer it.
    public static let options: [Option] = [
        Option(["-c", "--config"], value: "FILE", "config file (default $XDG_CONFIG_HOME/headlines/headlines.conf)") { $0.configPath = $1 },
        Option(["--provider"], value: "NAME", """
            feeds, hackernews, reddit, lobsters, guardian, nyt, gnews, apitube,
            newsapi or json, overriding [source] provider
            """) { $0.provider = $1 },
        Option(["--base-url"], value: "URL", "API base URL, overriding [source] base-url") { $0.baseURL = $1 },
        Option(["--widget"], value: "NAME", "the [widget NAME] of the config a command is about") { args, name throws(Arguments.UsageError) in
            guard WidgetName.isValid(name) else {
                throw Arguments.UsageError(message: "--widget '\(name)' is not a widget name (letters, digits, - and _)")
            }
            args.widget = name
        },
        Option(["-h", "--help"], "show help") { args, _ in args.help = true },
        Option(["-V", "--version"], "show the version") { args, _ in args.version = true },
        Option(["-v", "--verbose"], for: ["run"], "also log every entry change") { args, _ in args.verbose = true },
        Option(["--json"], for: ["list", "status", "i3blocks"], "print JSON") { args, _ in args.json = true },
        Option(["--persist"], for: ["i3blocks"], "the continuous form, for interval=persist") { args, _ in args.persist = true },
        Option(["--pango"], for: ["i3blocks"], "escape for markup=pango") { args, _ in args.pango = true },
        Option(["--comments"], for: ["open"], "its discussion page instead of its link") { args, _ in args.comments = true },
        Option(["--id"], value: "KEY", for: ["open"], "the headline a bar's click names (HeadlineKey, or its id)") { $0.id = $1 },
        Option(["--from-lemonbar"], for: ["open"], "read lemonbar's `open KEY` click lines on stdin") { args, _ in args.fromLemonbar = true },
        Option(["--opml"], for: ["export"], "the subscriptions as OPML") { args, _ in args.opml = true },
        Option(["--duration"], value: "DURATION", for: ["demo"], "stop after this long (default: until Ctrl-C)") { $0.duration = $1 },
        // What the programs pass each other, never offered to the user.
        Option(["--from-bar"], for: ["run"], internal: true,
               "the host started for the bars (by start): a config that does not load is shown there and waited for") {
            args, _ in args.fromBar = true
        },
        Option(["--failures"], value: "N", for: ["fetch"], internal: true, "the consecutive failures before this reload (back-off)") {
            args, text throws(Arguments.UsageError) in
            guard let n = Int(text), n >= 0 else { throw Arguments.UsageError(message: "--failures needs a count, not '\(text)'") }
            args.failures = n
        },
        Option(["--all-feeds"], for: ["fetch"], internal: true, "fetch every feed whatever its schedule (an explicit refresh)") {
            args, _ in args.allFeeds = true
        },
        Option(["--marks-only"], for: ["fetch"], internal: true, "send a sync service the queued read marks, fetch nothing") {
            args, _ in args.marksOnly = true
        },
    ]

    public static func option(named name: String) -> Option? { options.first { $0.names.contains(name) } }

    /// The public command called `name`, or with `name` among its aliases.
    public static func command(named name: String) -> Command? { commands.first { $0.isPublic && $0.names.contains(name) } }

    /// `headlines help NAME`; nil when no public command has that name.
    public static func help(for name: String) -> String? { command(named: name)?.help }

    /// `headlines --help`: the public commands and global options, each with its summary.
    public static var generalHelp: String {
        let global = options.filter { $0.isPublic && $0.commands.isEmpty }
        let usage = global.compactMap { option in option.value.map { "[\(option.long) \($0)]" } }
        return """
        headlines \(HeadlinesVersion.string): top news headlines for Linux desktops.

        Usage: headlines \(usage.joined(separator: " ")) COMMAND [ARGS]

        Commands:
        \(commands.filter(\.isPublic).map { row($0.synopsis, width: 13, $0.summary) }.joined(separator: "\n"))

        Options:
        \(global.map { row($0.names.joined(separator: ", ") + ($0.value.map { " " + $0 } ?? ""), width: 18, $0.summary) }
            .joined(separator: "\n"))

        Keys come from \(Config.Provider.keyVariables.joined(separator: ", "))
        or [source] api-key-file. With no key and no config, headlines reads public RSS feeds (see
        headlines.conf(5)).
        """
    }

    /// `  left  summary`, the summary two spaces past `width` (or past a longer left), its later
    /// lines under its first.
    private static func row(_ left: String, width: Int, _ summary: String) -> String {
        let pad = String(repeating: " ", count: max(width - left.count, 0) + 2)
        return "  " + left + pad + summary.split(separator: "\n").joined(separator: "\n" + String(repeating: " ", count: width + 4))
    }
}
