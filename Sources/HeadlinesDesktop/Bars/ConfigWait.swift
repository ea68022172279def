import FoundationEssentials
import HeadlinesCore
#if canImport(Glibc)
import Glibc
#endif

/// A bar must always show something: while the config does not load, the host the bus started
/// for a bar publishes the config error in the bars and waits here, on the loop,
/// instead of exiting (an exit blanks the block or hides the waybar module). SIGHUP and any
/// change in the config file's folder (editors save by a rename into place) re-read it; each
/// failure goes to `onError` (only when its sentence changed), and the first load that works
/// goes to `onLoaded`, once.
@GLibActor
public final class ConfigWait {
    private let load: () throws(ConfigError) -> [LoadedConfig]
    private let onError: (ConfigError) -> Void
    private let onLoaded: ([LoadedConfig]) -> Void
    private let configFile: String
    private var monitor: DirectoryMonitor?
    private var lastMessage: String?
    private var done = false
    private let firstError: ConfigError

    /// `error` is the failure that brought us here; it is reported at `start()`.
    public init(args: Arguments, environment: [String: String], error: ConfigError,
                onError: @escaping (ConfigError) -> Void, onLoaded: @escaping ([LoadedConfig]) -> Void) {
        load = { () throws(ConfigError) -> [LoadedConfig] in try LoadedConfig.loadWidgets(args: args, environment: environment) }
        configFile = args.configPath ?? XDGPaths(environment: environment).configFile
        self.onError = onError
        self.onLoaded = onLoaded
        lastMessage = error.message
        firstError = error
    }

    /// Reports the first error and starts watching. Call once, on the loop.
    public func start() {
        onError(firstError)
        let name = PathText.lastComponent(of: configFile)
        let folder = PathText.directory(of: configFile)
        // DirectoryMonitor makes a missing folder: never for a mistyped --config path (SIGHUP
        // still re-reads it).
        guard FileManager.default.fileExists(atPath: folder) else { return installSIGHUP() }
        monitor = DirectoryMonitor(path: folder) { [weak self] changed in
            guard changed == name else { return }
            Task { @GLibActor [weak self] in self?.retry(reason: "\(name) changed") }
        }
        installSIGHUP()
    }

    private func installSIGHUP() {
        // The host's own SIGHUP handler comes later; this one falls silent once `done`.
        MainLoop.onSignal(SIGHUP) { Task { @GLibActor [weak self] in self?.retry(reason: "SIGHUP") } }
    }

    /// Reads the config again; the caller sees an error only when its sentence changed.
    public func retry(reason: String) {
        guard !done else { return }
        do {
            let loaded = try load()
            done = true
            monitor = nil
            HostLog.info("\(reason): the config loads now")
            onLoaded(loaded)
        } catch {
            guard error.message != lastMessage else { return }
            lastMessage = error.message
            onError(error)
        }
    }

    /// The config-error lines for every bar variant, in the bar folder: what `headlines-bar`
    /// copies, so each bar copy shows the error with the `error` class.
    public static func publishError(_ error: ConfigError, paths: XDGPaths) {
        BarLinesPublisher(paths: paths, folders: [paths.barLinesDir]).publish(BarState(configError: error.message), now: Date(), maxLength: Config().maxLength)
    }
}
