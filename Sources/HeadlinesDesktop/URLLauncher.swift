import HeadlinesCore
import FoundationEssentials

/// Opens article links in the user's default browser (`ProcessLauncher.openDefault`, GIO's
/// handler for the scheme), never through a shell. Only http and https are ever opened.
public enum URLLauncher {
    public enum LaunchError: Error, CustomStringConvertible {
        case refusedScheme(String)
        case launchFailed(String)
        public var description: String {
            switch self {
            case let .refusedScheme(url): return "Refusing to open \(url): only http and https links are opened."
            case let .launchFailed(why): return "Could not open the link (\(why)): set a default web browser (xdg-settings set default-web-browser)."
            }
        }
    }

    /// `activation`: whether the browser may come to the front (see `ProcessLauncher.Activation`).
    public static func open(_ url: URL, activation: ProcessLauncher.Activation) throws(LaunchError) {
        guard URLPolicy.isOpenable(url) else { throw .refusedScheme(TerminalText.safe(url.absoluteString)) }
        do { try ProcessLauncher.openDefault(url.absoluteString, activation: activation) } catch { throw .launchFailed(error.message) }
    }
}
