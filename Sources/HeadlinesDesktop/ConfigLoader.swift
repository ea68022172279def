import FoundationEssentials
import HeadlinesCore

/// The config as every process resolves it, written once for the CLI and the host: the file
/// (GKeyFile) named by `--config` or the XDG default, then the environment and command-line
/// overrides (`--provider`, `--base-url`).
public struct LoadedConfig: Sendable {
    public var paths: XDGPaths
    public var config: Config
    public var file: String

    public init(paths: XDGPaths, config: Config, file: String) {
        self.paths = paths
        self.config = config
        self.file = file
    }

    public static func load(args: Arguments, environment: [String: String]) throws(ConfigError) -> LoadedConfig {
        let paths = XDGPaths(environment: environment)
        let file = args.configPath ?? paths.configFile
        var config: Config
        if let groups = try KeyFileReader.read(path: file) {
            config = try Config.parse(groups: groups, file: file)
        } else if args.configPath != nil {
            throw ConfigError("\(file) does not exist; check the --config path.")
        } else {
            config = Config()
        }
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
        return LoadedConfig(paths: paths, config: config, file: file)
    }
}
