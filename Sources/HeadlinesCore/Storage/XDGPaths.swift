import FoundationEssentials

/// Where `headlines` keeps things, per the XDG base directory spec. Built from an environment
/// dictionary so tests can point everything at a temporary folder.
public struct XDGPaths: Sendable, Equatable {
    public var configHome: String
    public var cacheHome: String
    public var stateHome: String
    public var runtimeDir: String

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
        if let v = environment["XDG_RUNTIME_DIR"], v.hasPrefix("/") { runtimeDir = v }
        else { runtimeDir = cacheHome + "/headlines-runtime" }
    }

    public var configFile: String { configHome + "/headlines/headlines.conf" }
    public var cacheDir: String { cacheHome + "/headlines" }
    public var cacheFile: String { cacheDir + "/headlines.json" }
    public var stateDir: String { stateHome + "/headlines" }
    public var runtimeHeadlinesDir: String { runtimeDir + "/headlines" }

    // Every file, in one place (ARCHITECTURE.md's file table says who writes and reads each).
    public var feedStateFile: String { cacheDir + "/feeds.json" }
    public var ledgerFile: String { stateDir + "/ledger.json" }
    public var statusFile: String { stateDir + "/status.json" }
    public var seenFile: String { stateDir + "/seen.json" }
    public var mutedFile: String { stateDir + "/muted.json" }
    public var hostLockFile: String { runtimeHeadlinesDir + "/host.lock" }
    public var publishedTimelineFile: String { runtimeHeadlinesDir + "/timeline.json" }
    public var rotationOffsetFile: String { runtimeHeadlinesDir + "/offset.json" }
}

extension XDGPaths {
    /// Sweeps the temporary files a process killed mid-write left in our folders. Returns the count.
    @discardableResult
    public func removeStaleTemporaries() -> Int {
        [cacheDir, stateDir, runtimeHeadlinesDir].reduce(0) { $0 + Platform.removeStaleTemporaries(in: $1) }
    }
}
