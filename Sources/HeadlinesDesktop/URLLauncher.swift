import CGLibNotify
import HeadlinesCore
import FoundationEssentials

/// Opens article links in the user's default browser through GIO
/// (`g_app_info_launch_default_for_uri`, which honours mimeapps.list), never through a shell.
/// Only http and https are ever opened.
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

    public static func open(_ url: URL) throws(LaunchError) {
        guard URLPolicy.isOpenable(url) else { throw .refusedScheme(TerminalText.safe(url.absoluteString)) }
        var error: UnsafeMutablePointer<GError>?
        if g_app_info_launch_default_for_uri(url.absoluteString, nil, &error) == 0 {
            let why = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            throw .launchFailed(why)
        }
    }
}
