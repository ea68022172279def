import FoundationEssentials

/// What `headlines doctor` found on this desktop: gathered by the desktop module
/// (`DesktopSurvey`) and the CLI (the config), judged by `DoctorReport` alone, so tests hand
/// the report made-up facts. Holds where an API key comes from, never the key.
public struct DesktopFacts: Equatable, Sendable {
    /// The notification server, from GetServerInformation and GetCapabilities.
    public struct Server: Equatable, Sendable {
        public var name: String
        public var vendor: String
        public var version: String
        public var capabilities: [String]
        /// The process owning org.freedesktop.Notifications, when the bus says.
        public var processID: Int32?

        public init(name: String, vendor: String, version: String, capabilities: [String], processID: Int32? = nil) {
            self.name = name
            self.vendor = vendor
            self.version = version
            self.capabilities = capabilities
            self.processID = processID
        }

        public var isDunst: Bool { name.lowercased() == "dunst" }
    }

    /// The application GIO opens https links with (what a click uses).
    public struct Browser: Equatable, Sendable {
        public var name: String
        /// Its desktop file's id, such as firefox-esr.desktop.
        public var id: String?
        public init(name: String, id: String?) { self.name = name; self.id = id }
    }

    /// The launcher `headlines menu` runs: its program, or the sentence saying why none can run.
    public enum Launcher: Equatable, Sendable {
        case found(program: String, configured: Bool)
        case broken(String)
    }

    /// A bar headlines feeds, and whether the config it reads runs headlines.
    public struct Bar: Equatable, Sendable {
        public var name: String
        public var installed: Bool
        /// The config file the bar reads by default, nil when it has none.
        public var configFile: String?
        public var runsHeadlines: Bool
        public init(name: String, installed: Bool, configFile: String?, runsHeadlines: Bool) {
            self.name = name
            self.installed = installed
            self.configFile = configFile
            self.runsHeadlines = runsHeadlines
        }
    }

    /// headlines' own config file.
    public struct ConfigFile: Equatable, Sendable {
        public var path: String
        public var exists: Bool
        /// What it gives when it loads (the provider, and where its key comes from); nil when it did not.
        public var summary: String?
        /// Sentences about it that each need a change: the load error, a missing key, warnings.
        public var problems: [String]
        public init(path: String, exists: Bool, summary: String?, problems: [String]) {
            self.path = path
            self.exists = exists
            self.summary = summary
            self.problems = problems
        }
    }

    /// nil: no notification server answers on the session bus.
    public var server: Server?
    /// dunst's left click as dunst reads its config; set only when the server is dunst.
    public var dunstLeftClick: DunstSettings.LeftClick?
    /// nil: no application opens https links.
    public var browser: Browser?
    public var launcher: Launcher
    public var bars: [Bar]
    public var config: ConfigFile
    /// Whether the server is in Do Not Disturb; nil when no server answers.
    public var doNotDisturb: Bool?
    /// What the running host holds back; nil when none runs, or it does not notify.
    public var held: HeldCounts?
    /// The GNOME Shell extension; nil when the desktop is not GNOME.
    public var gnomeShell: GnomeShellExtension?

    public init(server: Server?, dunstLeftClick: DunstSettings.LeftClick?, browser: Browser?, launcher: Launcher,
                bars: [Bar], config: ConfigFile) {
        self.server = server
        self.dunstLeftClick = dunstLeftClick
        self.browser = browser
        self.launcher = launcher
        self.bars = bars
        self.config = config
    }
}

/// The files `headlines doctor` reads to learn what other programs read: bounded, regular files
/// only; a fake in tests.
public protocol DoctorFiles: Sendable {
    /// The file's text (at most `DoctorFileLimit.bytes`), nil when it is missing, unreadable,
    /// too long or not a regular file.
    func text(_ path: String) -> String?
    /// The names in a folder, nil when it cannot be listed.
    func names(in folder: String) -> [String]?
}

public enum DoctorFileLimit {
    /// A dunstrc, a bar config or a /proc file: far above any real one.
    public static let bytes = 1 << 20
}

/// The real files.
public struct PosixDoctorFiles: DoctorFiles {
    public init() {}

    public func text(_ path: String) -> String? {
        guard let data = try? PosixFileSystem().read(path, limit: DoctorFileLimit.bytes) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    public func names(in folder: String) -> [String]? {
        try? FileManager.default.contentsOfDirectory(atPath: folder)
    }
}
