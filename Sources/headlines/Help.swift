import HeadlinesCore

/// `--help` and `help COMMAND`, rendered from the command table.
enum Help {
    static var general: String { CommandTable.generalHelp }

    /// The help of `name`, or of the command it is an alias of (prev → next, unmute and muted → mute).
    static func text(for name: String) -> String? { CommandTable.help(for: name) }
}
