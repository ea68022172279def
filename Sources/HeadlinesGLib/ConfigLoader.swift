import FoundationEssentials
import HeadlinesCore

/// The config as every process resolves it, written once for the CLI and the host: the file
/// (GKeyFile) named by `--config` or the XDG default, then the environment and command-line
/// overrides (`--provider`, `--base-url`).
public struct LoadedConfig: Sendable {
    public var paths: XDGPaths
    public var config: Config
    public var file: String
    /// How the host shares the budget between this config's widgets (one share without widgets).
    public var plan: WidgetPlan

    public init(paths: XDGPaths, config: Config, file: String, plan: WidgetPlan? = nil) {
        self.paths = paths
        self.config = config
        self.file = file
        self.plan = plan ?? WidgetPlan(widgets: [(nil, config)])
    }

    /// The widget this config is for: nil without widget groups.
    public var widget: String? { paths.widget }

    /// The config of the widget a command is about: `--widget NAME`, else the i3blocks block's
    /// `instance=`, else the first widget (by name); a name the file has no group for is an
    /// error naming the widgets it has. Without widget groups, the file's one widget, whatever
    /// the instance says (an old i3blocks config keeps working).
    public static func load(args: Arguments, environment: [String: String]) throws(ConfigError) -> LoadedConfig {
        let all = try loadWidgets(args: args, environment: environment)
        guard all.count > 1 || all.first?.widget != nil else { return all[0] }
        let wanted = args.widget ?? environment["BLOCK_INSTANCE"].flatMap { $0.isEmpty ? nil : $0 }
        guard let wanted else { return all[0] }
        guard let chosen = all.first(where: { $0.widget == wanted }) else {
            throw Config.noSuchWidget(wanted, widgets: all.compactMap(\.widget), file: all[0].file)
        }
        return chosen
    }

    /// Every widget of the config, in name order, with its share of the budget applied: what the
    /// host serves. One entry, widget nil, for a config without widget groups. `fileMustExist`:
    /// a missing file is an error even at the default path (a running host re-reading its config:
    /// a file deleted, or caught mid-replace, must not turn into the defaults and their source).
    public static func loadWidgets(args: Arguments, environment: [String: String],
                                   fileMustExist: Bool = false) throws(ConfigError) -> [LoadedConfig] {
        let base = try loadFile(args: args, environment: environment, fileMustExist: fileMustExist)
        if args.widget != nil && base.config.widgetGroups.isEmpty {
            var error = ConfigError("\(base.file) has no [widget \(args.widget!)]; it has no [widget NAME] groups: drop --widget or add the group.")
            error.namesNoWidget = true
            throw error
        }
        guard !base.config.widgetGroups.isEmpty else { return [base] }
        var widgets: [(name: String?, config: Config)] = []
        for name in base.config.widgetNames {
            var config = try base.config.widget(named: name, file: base.file)
            try resolve(&config, args: args, environment: environment)
            widgets.append((name, config))
        }
        let plan = WidgetPlan(widgets: widgets)
        return zip(widgets, plan.shares).map { widget, share in
            var config = widget.config
            config.dailyBudget = share.dailyBudget
            config.interval = share.interval
            return LoadedConfig(paths: base.paths.forWidget(share.widget, source: share.source), config: config,
                                file: base.file, plan: plan)
        }
    }

    /// The file itself: top-level groups, provider and command-line overrides applied.
    private static func loadFile(args: Arguments, environment: [String: String], fileMustExist: Bool) throws(ConfigError) -> LoadedConfig {
        let paths = XDGPaths(environment: environment)
        let file = args.configPath ?? paths.configFile
        var config: Config
        if let groups = try KeyFileReader.read(path: file) {
            config = try Config.parse(groups: groups, file: file)
        } else if args.configPath != nil {
            throw ConfigError("\(file) does not exist; check the --config path.")
        } else if fileMustExist {
            throw ConfigError("\(file) is gone (deleted, or being replaced); it applies again once it is back.")
        } else {
            config = Config()
        }
        try resolve(&config, args: args, environment: environment)
        return LoadedConfig(paths: paths, config: config, file: file)
    }

    /// The provider the environment picks, then `--provider` and `--base-url`.
    private static func resolve(_ config: inout Config, args: Arguments, environment: [String: String]) throws(ConfigError) {
        config.provider = config.resolvedProvider(environment: environment)
        config.providerIsExplicit = true
        if let name = args.provider {
            guard let provider = Config.Provider(rawValue: name.lowercased()) else {
                throw ConfigError("--provider '\(name)' is not known; use one of \(Config.Provider.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            config.provider = provider
        }
        if let base = args.baseURL {
            guard let url = URL(string: base), URLPolicy.isOpenable(url) else {
                throw ConfigError("--base-url '\(base)' is not an http or https URL; give one such as https://api.apitube.io.")
            }
            config.baseURL = url
        }
    }
}
