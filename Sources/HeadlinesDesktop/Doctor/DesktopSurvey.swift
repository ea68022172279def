import CGLibNotify
import HeadlinesCore

/// Gathers `DesktopFacts` for `headlines doctor`: the notification server (over the session
/// bus), dunst's left click as the running dunst reads it, the browser GIO opens links with,
/// the launcher `headlines menu` would run, the bars on PATH, on GNOME our shell extension. The
/// config part comes from the caller. Runs on the caller's thread; the D-Bus calls are synchronous.
public enum DesktopSurvey {
    /// `launcher`: the config's `[bar] launcher`, nil when unset or the config did not load.
    public static func facts(launcher: String?, config: DesktopFacts.ConfigFile, environment: [String: String],
                             files: any DoctorFiles = PosixDoctorFiles()) -> DesktopFacts {
        let libnotify = notify_is_initted() != 0 || notify_init(NotificationContent.appName) != 0
        let server = libnotify ? NotificationServerProbe.server() : nil
        var dunst: DunstSettings.LeftClick?
        if let server, server.isDunst {
            let process = server.processID.map { startedWith($0, files: files) }
            dunst = DunstSettings.leftClick(commandLine: process?.argv ?? [], environment: process?.environment ?? environment,
                                            files: files)
        }
        let bars = BarConfigSearch.bars.map { BarConfigSearch.bar($0, installed: onPath($0), environment: environment, files: files) }
        var facts = DesktopFacts(server: server, dunstLeftClick: dunst, browser: browser(),
                                 launcher: self.launcher(configured: launcher, environment: environment), bars: bars, config: config)
        if let server { facts.doNotDisturb = DoNotDisturb.isOn(serverName: server.name) }
        if GnomeShellExtension.isGNOME(environment) {
            facts.gnomeShell = GnomeShellExtension(folder: GnomeShellExtension.installedFolder(environment: environment, files: files),
                                                   state: GnomeShellProbe.state())
        }
        return facts
    }

    /// The command line and environment a process was started with, from /proc; the environment
    /// is nil when it cannot be read (then ours stands in: a session shares it).
    static func startedWith(_ pid: Int32, files: any DoctorFiles) -> (argv: [String], environment: [String: String]?) {
        func fields(_ name: String) -> [String]? {
            files.text("/proc/\(pid)/\(name)").map { $0.split(separator: "\0").map(String.init) }
        }
        let environment = fields("environ").map { pairs in
            Dictionary(pairs.compactMap { pair -> (String, String)? in
                guard let equal = pair.firstIndex(of: "=") else { return nil }
                return (String(pair[..<equal]), String(pair[pair.index(after: equal)...]))
            }, uniquingKeysWith: { first, _ in first })
        }
        return (fields("cmdline") ?? [], environment)
    }

    /// What a click would start for an https link (GIO's default handler for the scheme).
    static func browser() -> DesktopFacts.Browser? {
        guard let app = g_app_info_get_default_for_uri_scheme("https") else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(app)) }
        let name = g_app_info_get_name(app).map { String(cString: $0) } ?? "an unnamed application"
        return DesktopFacts.Browser(name: name, id: g_app_info_get_id(app).map { String(cString: $0) })
    }

    /// The launcher exactly as `headlines menu` picks it.
    static func launcher(configured: String?, environment: [String: String]) -> DesktopFacts.Launcher {
        do {
            let argv = try LauncherMenu.argv(configured: configured, environment: environment)
            if let missing = LauncherMenu.missingProgram(argv) { return .broken(LauncherMenu.MenuError.notOnPath(missing).description) }
            return .found(program: argv[0], configured: configured != nil)
        } catch {
            return .broken(error.description)
        }
    }

    static func onPath(_ program: String) -> Bool {
        guard let path = g_find_program_in_path(program) else { return false }
        g_free(path)
        return true
    }
}
