import CGLibNotify
import HeadlinesCore
import HeadlinesGLib

/// The one way the GLib programs start another program (ProcessLauncher) reaching a link's
/// handler: GIO's, so it lives here, beside the desktop layer's GIO, not in HeadlinesGLib.
extension ProcessLauncher {
    /// Opens `uri` with the desktop's handler for it (GIO honours mimeapps.list), with no API key
    /// in its environment whatever ours holds, and the activation token `activation` says.
    static func openDefault(_ uri: String, activation: Activation) throws(SpawnError) {
        let context = g_app_launch_context_new()
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        for variable in Config.Provider.keyVariables { g_app_launch_context_unsetenv(context, variable) }
        if case let .token(token) = activation {
            for variable in activationVariables {
                if let token, !token.isEmpty { g_app_launch_context_setenv(context, variable, token) }
                else { g_app_launch_context_unsetenv(context, variable) }
            }
        }
        var error: UnsafeMutablePointer<GError>?
        if g_app_info_launch_default_for_uri(uri, context, &error) == 0 { throw SpawnError(message: message(of: &error)) }
    }
}
