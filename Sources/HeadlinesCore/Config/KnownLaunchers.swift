/// The dmenu-style launchers `headlines menu` looks for when `[bar] launcher` is unset, in the
/// order it tries them: the one list the code, `--help`, the manuals, the README and the
/// package's Suggests follow (LauncherOrderTests holds them to it).
public enum KnownLaunchers {
    public struct Launcher: Sendable {
        public var name: String
        /// How it reads a list on stdin and prints the chosen line.
        public var args: [String]
        /// Runs only under Wayland (tried there, skipped under X11).
        public var waylandOnly: Bool
    }

    public static let all: [Launcher] = [
        Launcher(name: "fuzzel", args: ["--dmenu", "--prompt", "Headlines: "], waylandOnly: true),
        Launcher(name: "wofi", args: ["--dmenu", "--prompt", "Headlines"], waylandOnly: true),
        Launcher(name: "rofi", args: ["-dmenu", "-i", "-p", "Headlines"], waylandOnly: false),
        Launcher(name: "bemenu", args: ["-i", "-l", "10", "-p", "Headlines"], waylandOnly: false),
        Launcher(name: "dmenu", args: ["-i", "-l", "10", "-p", "Headlines"], waylandOnly: false),
    ]

    /// "fuzzel, wofi, rofi, bemenu, dmenu": for help texts.
    public static var names: String { all.map(\.name).joined(separator: ", ") }
}
