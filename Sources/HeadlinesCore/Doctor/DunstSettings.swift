import FoundationEssentials

/// dunst's `mouse_left_click`, read the way dunst 1.9 reads its config (src/settings.c, src/ini.c):
/// with `-conf`/`-config FILE` on its command line, that file alone; otherwise the first readable
/// `dunstrc` of `$XDG_CONFIG_HOME/dunst`, then of each `$XDG_CONFIG_DIRS` entry's `dunst` folder
/// (`/etc/xdg` when unset), followed by the `*.conf` files of the `dunstrc.d` folder beside it,
/// in name order. Each file overrides the ones before; a value dunst does not understand is
/// ignored, keeping the one before. Out of the box the left click only closes.
public enum DunstSettings {
    public static let defaultLeftClick = ["close_current"]
    /// The line that makes a left click run the default action (open the article), then close.
    public static let openingLeftClick = "mouse_left_click = do_action, close_current"
    static let mouseActions: Set<String> = ["none", "do_action", "close_current", "close_all", "context", "context_all", "open_url"]

    /// The left click dunst ends up with, and where it came from.
    public struct LeftClick: Equatable, Sendable {
        /// Its mouse actions, such as ["close_current"].
        public var actions: [String]
        /// The file whose value counts; nil when none sets it (dunst's built-in default).
        public var setIn: String?
        /// The main file dunst reads (the `-config` one, or the first dunstrc found); nil: none.
        public var mainFile: String?
        /// Where the user's own dunstrc goes: `$XDG_CONFIG_HOME/dunst/dunstrc`.
        public var userFile: String
        /// The main file came from dunst's command line.
        public var fromCommandLine: Bool

        public init(actions: [String], setIn: String?, mainFile: String?, userFile: String, fromCommandLine: Bool) {
            self.actions = actions
            self.setIn = setIn
            self.mainFile = mainFile
            self.userFile = userFile
            self.fromCommandLine = fromCommandLine
        }

        /// A left click runs the default action.
        public var opensArticle: Bool { actions.contains("do_action") }

        /// `file` is one the user edits: the `-config` file, or one under their own config folder.
        public func isUsers(_ file: String) -> Bool {
            (fromCommandLine && file == mainFile) || file.hasPrefix(PathText.directory(of: userFile) + "/")
        }
    }

    /// `commandLine`: dunst's argv (empty when unknown); `environment`: dunst's environment.
    public static func leftClick(commandLine: [String], environment: [String: String], files: any DoctorFiles) -> LeftClick {
        let userFile = XDGPaths(environment: environment).configHome + "/dunst/dunstrc"
        var read: [(path: String, text: String)] = []
        var mainFile: String?
        let given = configOption(commandLine)
        if let given {
            mainFile = given
            if let text = files.text(given) { read.append((given, text)) }
        } else {
            let systemDirs = environment["XDG_CONFIG_DIRS"].map { $0.split(separator: ":").map(String.init) } ?? ["/etc/xdg"]
            let candidates = [userFile] + systemDirs.map { dir in
                String(dir.reversed().drop(while: { $0 == "/" }).reversed()) + "/dunst/dunstrc"
            }
            for candidate in candidates {
                guard let text = files.text(candidate) else { continue }
                mainFile = candidate
                read.append((candidate, text))
                let dropIns = candidate + ".d"
                for name in (files.names(in: dropIns) ?? []).sorted() where name.hasSuffix(".conf") && !name.hasPrefix(".") {
                    let path = dropIns + "/" + name
                    if let text = files.text(path) { read.append((path, text)) }
                }
                break
            }
        }
        var actions = defaultLeftClick
        var setIn: String?
        for file in read {
            guard let value = value(of: "mouse_left_click", inSection: "global", of: file.text) else { continue }
            // An empty value is an empty list: the click does nothing.
            let parsed = value.isEmpty ? [] : value.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmed() }
            guard parsed.allSatisfy(mouseActions.contains) else { continue }
            actions = parsed
            setIn = file.path
        }
        return LeftClick(actions: actions, setIn: setIn, mainFile: mainFile, userFile: userFile, fromCommandLine: given != nil)
    }

    /// The value after `-conf`, else after `-config` (dunst looks for the first name, then the second).
    static func configOption(_ argv: [String]) -> String? {
        for name in ["-conf", "-config"] {
            if let i = argv.firstIndex(of: name), i + 1 < argv.count { return argv[i + 1] }
        }
        return nil
    }

    /// The first `key = value` of `[section]` in dunst's ini dialect: lines starting with `#` or
    /// `;` are comments; a value may be in double quotes; outside them, `#` or `;` starts a
    /// comment; a section named twice is one section.
    static func value(of key: String, inSection section: String, of text: String) -> String? {
        var current: String?
        for raw in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = raw.trimmed()
            guard let first = line.first, first != "#", first != ";" else { continue }
            if first == "[" {
                if let end = line.dropFirst().firstIndex(of: "]") { current = String(line[line.index(after: line.startIndex)..<end]) }
                continue
            }
            guard let equal = line.dropFirst().firstIndex(of: "=") else { continue }
            guard current == section, line[..<equal].trimmed() == key else { continue }
            var value = Substring(line[line.index(after: equal)...].trimmed())
            let commentFrom: Substring.Index
            if let quote = value.firstIndex(of: "\"") {
                guard let close = value[value.index(after: quote)...].firstIndex(of: "\"") else { continue }
                commentFrom = close
            } else {
                commentFrom = value.startIndex
            }
            if let comment = value[commentFrom...].firstIndex(where: { $0 == "#" || $0 == ";" }) { value = value[..<comment] }
            var result = value.trimmed()
            if result.count >= 2, result.hasPrefix("\""), result.hasSuffix("\"") { result = String(result.dropFirst().dropLast()) }
            return result
        }
        return nil
    }
}
