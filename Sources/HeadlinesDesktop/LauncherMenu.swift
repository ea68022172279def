import CGLibNotify
import HeadlinesCore

/// `headlines menu`: the headlines in the user's dmenu-style launcher. The launcher is the
/// configured command line (split by GLib's shell-quoting rules, run without a shell) or the first
/// of `KnownLaunchers` found on PATH (the Wayland-only ones skipped under X11).
public enum LauncherMenu {
    public enum MenuError: Error, CustomStringConvertible {
        /// None of the known launchers is on PATH; `wayland` picks which to suggest.
        case noLauncher(wayland: Bool)
        case badCommand(String)
        /// The configured launcher's program is not on PATH.
        case notOnPath(String)
        case failed(String)
        public var description: String {
            switch self {
            case let .noLauncher(wayland):
                let suggestion = wayland ? "fuzzel or wofi (Wayland)" : "rofi or dmenu"
                return "No launcher for the headlines menu is installed: install \(suggestion), or set [bar] launcher to a dmenu-style program."
            case let .notOnPath(program):
                return "The launcher '\(program)' ([bar] launcher) is not installed or not on PATH: install it or change [bar] launcher."
            case let .badCommand(why): return "[bar] launcher cannot be parsed (\(why)): quote it as a shell would."
            case let .failed(why): return "The launcher failed (\(why)): check [bar] launcher."
            }
        }
    }

    public static func argv(configured: String?, environment: [String: String]) throws(MenuError) -> [String] {
        if let configured {
            var argc: Int32 = 0
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
            var error: UnsafeMutablePointer<GError>?
            guard g_shell_parse_argv(configured, &argc, &argv, &error) != 0, let argv else {
                let why = error.map { String(cString: $0.pointee.message) } ?? "empty"
                g_clear_error(&error)
                throw .badCommand(why)
            }
            defer { g_strfreev(argv) }
            return (0..<Int(argc)).compactMap { argv[$0].map { String(cString: $0) } }
        }
        let wayland = environment["WAYLAND_DISPLAY"] != nil
        for launcher in KnownLaunchers.all where wayland || !launcher.waylandOnly {
            if let path = g_find_program_in_path(launcher.name) {
                g_free(path)
                return [launcher.name] + launcher.args
            }
        }
        throw .noLauncher(wayland: wayland)
    }

    /// The program of `argv` when it cannot be found on PATH (or is not executable), else nil.
    public static func missingProgram(_ argv: [String]) -> String? {
        guard let program = argv.first, !program.isEmpty else { return "" }
        guard let path = g_find_program_in_path(program) else { return program }
        g_free(path)
        return nil
    }

    /// The one-sentence warning for a configured launcher that cannot run, checked when the config
    /// loads (the unterminated-quote case is already a config error by then).
    public static func configWarning(configured: String?, file: String) -> String? {
        guard let configured, let argv = try? argv(configured: configured, environment: [:]),
              let missing = missingProgram(argv) else { return nil }
        return "\(file): [bar] launcher names '\(missing)', which is not installed or not on PATH: `headlines menu` cannot open it."
    }

    /// Shows `lines` and returns the index picked, or nil when the user dismissed the menu.
    public static func choose(_ lines: [String], argv: [String], environment: [String: String]) throws(MenuError) -> Int? {
        let text = lines.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n") + "\n"
        let outcome: ProcessLauncher.PipedOutcome
        do { outcome = try ProcessLauncher.runPiped(argv, input: text, environment: ProcessLauncher.userEnvironment(environment)) } catch {
            throw .failed("\(argv[0]): \(error.message)")
        }
        // Exit status 1 is how dmenu, rofi, wofi, fuzzel and bemenu say the user dismissed them.
        switch outcome.exit {
        case .status(0): break
        case .status(1): return nil
        case let .status(code): throw .failed("\(argv[0]) exited with status \(code)")
        case let .signal(number): throw .failed("\(argv[0]) was killed by signal \(number)")
        }
        let picked = outcome.output
        let number = picked.prefix(while: { $0.isNumber })
        guard let n = Int(number), (1...lines.count).contains(n) else { return nil }
        return n - 1
    }
}
