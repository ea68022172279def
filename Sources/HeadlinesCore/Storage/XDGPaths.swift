import BarFormats
import FoundationEssentials

/// Where `headlines` keeps things, per the XDG base directory spec. Built from an environment
/// dictionary so tests can point everything at a temporary folder.
public struct XDGPaths: Sendable, Equatable {
    public var configHome: String
    public var cacheHome: String
    public var stateHome: String
    public var runtimeDir: String
    /// The `[widget NAME]` these paths are for; nil for the one widget of a config without
    /// widget groups, whose files are where every earlier version kept them.
    public var widget: String?
    /// The widget whose fetch fills this one's cache: itself, or the first widget on the same
    /// source (`WidgetPlan`), so two widgets on one feed share one request and one cache.
    public var sourceWidget: String?

    public init(environment: [String: String]) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        func dir(_ key: String, _ fallback: String) -> String {
            // The spec says relative paths are invalid and must be ignored.
            if let v = environment[key], v.hasPrefix("/") { return v }
            return home + "/" + fallback
        }
        configHome = dir("XDG_CONFIG_HOME", ".config")
        cacheHome = dir("XDG_CACHE_HOME", ".cache")
        stateHome = dir("XDG_STATE_HOME", ".local/state")
        runtimeDir = RuntimeLayout.parent(runtimeDir: environment["XDG_RUNTIME_DIR"], cacheHome: cacheHome, home: home)
    }

    /// These paths for widget `name`, whose cache is `source`'s (itself unless it shares one).
    public func forWidget(_ name: String?, source: String? = nil) -> XDGPaths {
        var paths = self
        paths.widget = name
        paths.sourceWidget = name == nil ? nil : (source ?? name)
        return paths
    }

    public var configFile: String { configHome + "/headlines/headlines.conf" }
    /// A widget's cache and state live in `widgets/NAME/` below the usual folders.
    public var cacheDir: String { cacheHome + "/headlines" + (sourceWidget.map { "/widgets/" + $0 } ?? "") }
    public var cacheFile: String { cacheDir + "/headlines.json" }
    /// What every widget shares: the seen set (a headline is notified once, whichever widget has it)
    /// and the muted sources.
    public var sharedStateDir: String { stateHome + "/headlines" }
    public var stateDir: String { sharedStateDir + (widget.map { "/widgets/" + $0 } ?? "") }
    /// A widget's runtime folder is a sibling of the usual one, `headlines-widget-NAME`: directly
    /// in XDG_RUNTIME_DIR, so it is made and checked (ours, 0700) exactly as `headlines` is.
    public var runtimeHeadlinesDir: String { runtimeDir + "/" + RuntimeLayout.folderName(widget: widget) }

    // Every file, in one place (ARCHITECTURE.md's file table says who writes and reads each).
    public var feedStateFile: String { cacheDir + "/feeds.json" }
    public var ledgerFile: String { stateDir + "/ledger.json" }
    /// Written by the fetch, so it sits with the cache's widget.
    public var statusFile: String { sharedStateDir + (sourceWidget.map { "/widgets/" + $0 } ?? "") + "/status.json" }
    public var seenFile: String { sharedStateDir + "/seen.json" }
    public var mutedFile: String { sharedStateDir + "/muted.json" }
    public var hostLockFile: String { runtimeHeadlinesDir + "/host.lock" }
    public var rotationOffsetFile: String { runtimeHeadlinesDir + "/offset.json" }
    /// The widgets a host serves, one name a line (`RuntimeLayout.servedWidgetsName`).
    public var servedWidgetsFile: String { runtimeHeadlinesDir + "/" + RuntimeLayout.servedWidgetsName }
}

extension XDGPaths {
    /// Sweeps the temporary files a process killed mid-write left in our folders. Returns the count.
    @discardableResult
    public func removeStaleTemporaries() -> Int {
        [cacheDir, stateDir, runtimeHeadlinesDir].reduce(0) { $0 + Platform.removeStaleTemporaries(in: $1) }
    }
}
