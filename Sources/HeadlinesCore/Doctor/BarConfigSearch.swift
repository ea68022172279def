import FoundationEssentials

/// Which config file each bar headlines feeds reads when it is started without one, found the
/// way the bar finds it (the first that exists wins), and whether that file runs headlines.
public enum BarConfigSearch {
    /// The bars `headlines-bar` speaks for, in the order `headlines doctor` lists them.
    public static let bars = ["waybar", "i3blocks"]

    /// waybar 0.9 (src/config.cpp): `$WAYBAR_CONFIG_DIR`, then `$XDG_CONFIG_HOME/waybar`,
    /// `~/.config/waybar`, `~/waybar`, `/etc/xdg/waybar`, each with `config` then `config.jsonc`.
    /// i3blocks 1.4 (src/ini.c): `$XDG_CONFIG_HOME/i3blocks/config` (else
    /// `~/.config/i3blocks/config`), `~/.i3blocks.conf`, `$XDG_CONFIG_DIRS/i3blocks/config` (the
    /// variable whole, else `/etc/xdg`), `/etc/i3blocks.conf`.
    public static func candidates(for bar: String, environment: [String: String]) -> [String] {
        let home = environment["HOME"] ?? ""
        switch bar {
        case "waybar":
            var dirs: [String] = []
            if let dir = environment["WAYBAR_CONFIG_DIR"] { dirs.append(dir) }
            if let dir = environment["XDG_CONFIG_HOME"] { dirs.append(dir + "/waybar") }
            dirs += [home + "/.config/waybar", home + "/waybar", "/etc/xdg/waybar"]
            return dirs.flatMap { [$0 + "/config", $0 + "/config.jsonc"] }
        case "i3blocks":
            let user = environment["XDG_CONFIG_HOME"].map { $0 + "/i3blocks/config" } ?? home + "/.config/i3blocks/config"
            let system = (environment["XDG_CONFIG_DIRS"] ?? "/etc/xdg") + "/i3blocks/config"
            return [user, home + "/.i3blocks.conf", system, "/etc/i3blocks.conf"]
        default:
            return []
        }
    }

    /// `bar` as found: `installed` says whether its program is on PATH (the caller looks).
    public static func bar(_ name: String, installed: Bool, environment: [String: String], files: any DoctorFiles) -> DesktopFacts.Bar {
        for path in candidates(for: name, environment: environment) {
            guard let text = files.text(path) else { continue }
            return DesktopFacts.Bar(name: name, installed: installed, configFile: path, runsHeadlines: text.contains("headlines"))
        }
        return DesktopFacts.Bar(name: name, installed: installed, configFile: nil, runsHeadlines: false)
    }
}
