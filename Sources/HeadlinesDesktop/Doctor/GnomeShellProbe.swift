import CGLibNotify
import HeadlinesCore

/// Asks the running GNOME Shell what it makes of our extension (what `gnome-extensions info`
/// asks), for `headlines doctor`: a synchronous call on the doctor's only thread, which never
/// starts a shell.
enum GnomeShellProbe {
    static func state() -> GnomeShellExtension.State {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else { g_clear_error(&error); return .unknown }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        var argument: OpaquePointer? = g_variant_new_string(GnomeShellExtension.uuid)
        let parameters = g_variant_new_tuple(&argument, 1)
        let replyType = g_variant_type_new("(a{sv})")
        defer { g_variant_type_free(replyType) }
        guard let reply = g_dbus_connection_call_sync(bus, "org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell.Extensions",
                                                      "GetExtensionInfo", parameters, replyType,
                                                      G_DBUS_CALL_FLAGS_NO_AUTO_START, 3000, nil, &error) else {
            g_clear_error(&error)
            return .unknown
        }
        defer { g_variant_unref(reply) }
        let info = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(info) }
        return GnomeShellExtension.state(reported: value(info, "state", "d") { g_variant_get_double($0) },
                                         error: value(info, "error", "s") { String(cString: g_variant_get_string($0, nil)) } ?? "")
    }

    /// The dictionary's `key`, when it holds a value of `type`.
    private static func value<T>(_ dictionary: OpaquePointer?, _ key: String, _ type: String, _ read: (OpaquePointer) -> T) -> T? {
        guard let found = withVariantType(type, { g_variant_lookup_value(dictionary, key, $0) }) else { return nil }
        defer { g_variant_unref(found) }
        return read(found)
    }
}
