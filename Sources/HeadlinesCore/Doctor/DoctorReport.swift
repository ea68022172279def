import FoundationEssentials

/// `headlines doctor`'s judgement of `DesktopFacts`: one entry per part of the desktop a click
/// goes through (the notification server, the browser, the launcher, the bars, the config),
/// then each change that would make it work. Things the user cannot change (a server without
/// actions) are said, not counted as changes.
public struct DoctorReport: Equatable, Sendable {
    /// One part of the desktop: its label and what was found, one or more lines.
    public struct Entry: Equatable, Sendable {
        public var label: String
        public var lines: [String]
    }

    /// Something to change: a sentence, and the exact line to put in a file when there is one.
    public struct Change: Equatable, Sendable {
        public var sentence: String
        public var line: String?
    }

    public private(set) var entries: [Entry] = []
    public private(set) var changes: [Change] = []

    /// 0 when nothing needs changing, 1 otherwise.
    public var exitStatus: Int32 { changes.isEmpty ? 0 : 1 }

    public init(_ facts: DesktopFacts) {
        entries.append(Entry(label: "notifications", lines: server(facts)))
        entries.append(Entry(label: "browser", lines: [browser(facts.browser)]))
        entries.append(Entry(label: "launcher", lines: [launcher(facts.launcher)]))
        entries.append(Entry(label: "bars", lines: facts.bars.isEmpty ? ["none known"] : facts.bars.map(Self.bar)))
        if let extensionFound = facts.gnomeShell { entries.append(Entry(label: "GNOME Shell", lines: [gnomeShell(extensionFound)])) }
        entries.append(Entry(label: "config", lines: [config(facts.config)]))
    }

    private mutating func server(_ facts: DesktopFacts) -> [String] {
        guard let server = facts.server else {
            changes.append(Change(sentence: "No notification server answers on the session bus, so no headline is notified: install one (dunst, mako, xfce4-notifyd) and start it with your session.", line: nil))
            return ["none answers on the session bus"]
        }
        let version = server.version.isEmpty ? "" : " " + server.version
        let vendor = server.vendor.isEmpty || server.vendor == server.name ? "" : " (\(server.vendor))"
        let caps = server.capabilities.isEmpty ? "reports no capabilities" : "supports " + server.capabilities.joined(separator: ", ")
        var lines = ["\(server.name)\(version)\(vendor) \(caps)"]
        let names = Set(server.capabilities)
        if !names.contains("actions") {
            let form = names.contains("body-hyperlinks") && names.contains("body-markup") ? "as a link" : "as text"
            lines.append("no actions: a click cannot open the article, so each notification carries its link \(form)")
        }
        if server.isDunst, let click = facts.dunstLeftClick {
            let value = "mouse_left_click = \(click.actions.joined(separator: ", ")), \(click.setIn.map { "in " + $0 } ?? "dunst's default")"
            if click.opensArticle {
                lines.append("a left click opens the article (\(value))")
            } else {
                lines.append("a left click closes the notification without opening the article (\(value))")
                changes.append(Change(sentence: "dunst closes a notification on a left click instead of opening the article. \(Self.whereToSet(click)), then restart dunst:",
                                      line: DunstSettings.openingLeftClick))
            }
        } else if server.name.lowercased().contains("xfce") {
            lines.append("click the Open button: a click on the body only closes the notification")
        }
        if facts.doNotDisturb == true {
            lines.append("Do Not Disturb is on: nothing is posted until it ends, then one summary of what arrived")
        }
        if let sentence = facts.held?.sentence { lines.append("held back: " + sentence) }
        return lines
    }

    /// Where the dunst line goes so that dunst reads it last: the file the user owns that sets
    /// the left click now, else their main file, else a copy of the system one they can edit.
    public static func whereToSet(_ click: DunstSettings.LeftClick) -> String {
        if let file = click.setIn, click.isUsers(file) { return "In \(file), change the mouse_left_click line to this" }
        if let main = click.mainFile {
            if click.isUsers(main) { return "Add this to the [global] section of \(main)" }
            return "Copy \(main) to \(click.userFile) (dunst then reads that file instead) and set this in its [global] section"
        }
        return "Create \(click.userFile) with a [global] section holding this line"
    }

    private mutating func browser(_ browser: DesktopFacts.Browser?) -> String {
        guard let browser else {
            changes.append(Change(sentence: "No application opens https links, so a click opens nothing: set a default browser, such as `xdg-settings set default-web-browser firefox-esr.desktop`.", line: nil))
            return "none opens https links"
        }
        return "\(browser.name)\(browser.id.map { " (\($0))" } ?? "") opens https links"
    }

    private mutating func launcher(_ launcher: DesktopFacts.Launcher) -> String {
        switch launcher {
        case let .found(program, configured):
            return "\(program)\(configured ? ", from [bar] launcher" : ", found on PATH") (for `headlines menu` and a digest's click)"
        case let .broken(sentence):
            changes.append(Change(sentence: sentence, line: nil))
            return "none can run"
        }
    }

    private static func bar(_ bar: DesktopFacts.Bar) -> String {
        let config: String
        switch (bar.configFile, bar.runsHeadlines) {
        case (nil, _): config = "no config file"
        case let (file?, true): config = "\(file) runs headlines"
        case let (file?, false): config = "\(file) does not mention headlines"
        }
        return "\(bar.name): \(bar.installed ? "installed" : "not installed"), \(config)"
    }

    private mutating func gnomeShell(_ found: GnomeShellExtension) -> String {
        let name = "the extension \(GnomeShellExtension.uuid)", enable = GnomeShellExtension.enableCommand
        guard let folder = found.folder else {
            changes.append(Change(sentence: "GNOME's top bar shows no headline without the extension: install it (`make install`, or the .deb), log out and in again, then enable it:",
                                  line: enable))
            return "\(name) is not installed"
        }
        switch found.state {
        case .enabled:
            return "\(name) is installed (\(folder)) and enabled"
        case .disabled:
            changes.append(Change(sentence: "The GNOME Shell extension is installed but not enabled, so the top bar shows no headline: enable it:",
                                  line: enable))
            return "\(name) is installed (\(folder)), not enabled"
        case .notLoaded:
            changes.append(Change(sentence: "GNOME Shell has not loaded the extension yet (it looks for new ones when it starts): log out and in again, then enable it:",
                                  line: enable))
            return "\(name) is installed (\(folder)); GNOME Shell has not loaded it"
        case let .failed(reason):
            changes.append(Change(sentence: "GNOME Shell could not run the extension: \(TerminalText.safe(String(reason.prefix(300)))). `journalctl --user -b /usr/bin/gnome-shell` says more.",
                                  line: nil))
            return "\(name) is installed (\(folder)) but GNOME Shell could not run it"
        case .unknown:
            return "\(name) is installed (\(folder)); GNOME Shell did not answer, so whether it is enabled is not known (to enable it: \(enable))"
        }
    }

    private mutating func config(_ config: DesktopFacts.ConfigFile) -> String {
        for problem in config.problems { changes.append(Change(sentence: problem, line: nil)) }
        guard let summary = config.summary else { return "\(config.path) does not load (below)" }
        return "\(config.path) \(config.exists ? "loads" : "(no file: the defaults)"): \(summary)"
    }

    /// The report as printed: the entries in two columns, then the changes, numbered, each with
    /// its line to add on a line of its own.
    public var text: String {
        let width = (entries.map(\.label.count).max() ?? 0) + 2
        var out = ["headlines doctor"]
        for entry in entries {
            for (n, line) in entry.lines.enumerated() {
                let label = n == 0 ? entry.label : ""
                out.append("  " + label + String(repeating: " ", count: width - label.count) + line)
            }
        }
        out.append("")
        if changes.isEmpty {
            out.append("Nothing to change.")
        } else {
            out.append(NumberText.counted(changes.count, "thing") + " to change:")
            for (n, change) in changes.enumerated() {
                out.append("  \(n + 1). \(change.sentence)")
                if let line = change.line { out.append("       " + line) }
            }
        }
        return out.joined(separator: "\n")
    }
}
