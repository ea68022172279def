import FoundationEssentials
import HeadlinesCore
import HeadlinesDesktop
import HeadlinesGLib

/// Everything a command needs, resolved once: paths, the validated config, the environment.
public struct AppContext: Sendable {
    public var environment: [String: String]
    public var paths: XDGPaths
    public var config: Config
    public var configFile: String
    public var arguments: Arguments
    /// Every widget of the config and how they share the budget (one share without widgets).
    public var plan: WidgetPlan

    public static func load(args: Arguments, environment: [String: String]) throws(ConfigError) -> AppContext {
        let loaded = try LoadedConfig.load(args: args, environment: environment)
        // Accepted values that look wrong: said once per command, on stderr (bars keep stdout).
        let launcher = LauncherMenu.configWarning(configured: loaded.config.launcher, file: loaded.file)
        for warning in loaded.config.warnings + (launcher.map { [$0] } ?? []) { Output.error("headlines: warning: \(warning)") }
        return AppContext(environment: environment, paths: loaded.paths, config: loaded.config, configFile: loaded.file,
                          arguments: args, plan: loaded.plan)
    }

    public var cache: HeadlineCache { HeadlineCache(path: paths.cacheFile) }
    public var statusStore: RefreshStatusStore { RefreshStatusStore(path: paths.statusFile) }

    public var loaded: LoadedConfig { LoadedConfig(paths: paths, config: config, file: configFile, plan: plan) }
}

