import FoundationEssentials

/// The GNOME Shell extension (packaging/gnome-shell/) as `headlines doctor` finds it. Asked only on
/// GNOME, whose top bar runs no bar program: the extension is how a headline gets there.
public struct GnomeShellExtension: Equatable, Sendable {
    public static let uuid = "headlines@headlines.org"
    public static let enableCommand = "gnome-extensions enable \(uuid)"

    /// What the running shell says of it (org.gnome.Shell.Extensions.GetExtensionInfo).
    public enum State: Equatable, Sendable {
        case enabled
        case disabled
        /// The shell has not loaded it: on Wayland it looks for extensions only when it starts.
        case notLoaded
        /// The shell tried and failed, with its reason.
        case failed(String)
        /// No shell answered on the session bus (doctor run outside the desktop session).
        case unknown
    }

    /// The folder it is installed in, nil when none.
    public var folder: String?
    public var state: State

    public init(folder: String?, state: State) {
        self.folder = folder
        self.state = state
    }

    /// Whether XDG_CURRENT_DESKTOP names GNOME ("GNOME", "ubuntu:GNOME", "GNOME-Classic:GNOME").
    public static func isGNOME(_ environment: [String: String]) -> Bool {
        (environment["XDG_CURRENT_DESKTOP"] ?? "").uppercased().contains("GNOME")
    }

    /// Where GNOME Shell looks for it, in its order: the user's data folder, then each system one.
    public static func folders(_ environment: [String: String]) -> [String] {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let dataHome = value("XDG_DATA_HOME") ?? (value("HOME") ?? "") + "/.local/share"
        let dataDirs = (value("XDG_DATA_DIRS") ?? "/usr/local/share:/usr/share").split(separator: ":").map(String.init)
        return ([dataHome] + dataDirs).map { $0 + "/gnome-shell/extensions/" + uuid }
    }

    /// The first of those folders that holds the extension's metadata.json.
    public static func installedFolder(environment: [String: String], files: any DoctorFiles) -> String? {
        folders(environment).first { files.text($0 + "/metadata.json") != nil }
    }

    /// The state GetExtensionInfo reports: its `state` number (GNOME's ExtensionState) and `error`;
    /// no state at all when the shell does not know the extension.
    public static func state(reported: Double?, error: String) -> State {
        switch reported {
        case nil: return .notLoaded
        case 1, 8: return .enabled // ENABLED; ENABLING (GNOME 45 and later)
        case 3: return .failed(error.isEmpty ? "an error" : error)
        case 4: return .failed("not made for this version of GNOME Shell")
        case 99: return .notLoaded // UNINSTALLED
        default: return .disabled // DISABLED, INITIALIZED, DISABLING
        }
    }
}
