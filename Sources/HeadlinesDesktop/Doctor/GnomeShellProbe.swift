import HeadlinesCore

/// Asks the running GNOME Shell what it makes of our extension (what `gnome-extensions info`
/// asks), for `headlines doctor`: a synchronous call on the doctor's only thread, which never
/// starts a shell.
enum GnomeShellProbe {
    static func state() -> GnomeShellExtension.State {
        guard case let .values(reply) = BusClient.call(("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell.Extensions"),
                                                       "GetExtensionInfo", [.string(GnomeShellExtension.uuid)]) else { return .unknown }
        let info = BusClient.dictionary(reply.first)
        return GnomeShellExtension.state(reported: info.isEmpty ? nil : info["state"]?.real, error: info["error"]?.text ?? "")
    }
}
