import CGLibNotify
import HeadlinesCore

/// Asks the notification server on the session bus what it is and what it can do. Synchronous
/// D-Bus calls: `LibnotifyNotifier` makes them on its worker thread, `headlines doctor` on its
/// only thread; never the host's loop. libnotify must be initialised first (`notify_init`).
public enum NotificationServerProbe {
    /// GetCapabilities: the names the server reports, nil when no server answers.
    public static func capabilityNames() -> [String]? {
        guard let list = notify_get_server_caps() else { return nil }
        defer { g_list_free_full(list, g_free) }
        var names: [String] = []
        var node: UnsafeMutablePointer<GList>? = list
        while let n = node {
            if let p = n.pointee.data { names.append(String(cString: p.assumingMemoryBound(to: CChar.self))) }
            node = n.pointee.next
        }
        return names
    }

    /// GetServerInformation's name alone ("dunst", "gnome-shell"), nil when no server answers.
    public static func serverName() -> String? {
        var name: UnsafeMutablePointer<CChar>?
        guard notify_get_server_info(&name, nil, nil, nil) != 0 else { return nil }
        defer { g_free(name) }
        return name.map { String(cString: $0) }
    }

    /// GetServerInformation and GetCapabilities together, nil when no server answers.
    public static func server() -> DesktopFacts.Server? {
        var name: UnsafeMutablePointer<CChar>?
        var vendor: UnsafeMutablePointer<CChar>?
        var version: UnsafeMutablePointer<CChar>?
        var spec: UnsafeMutablePointer<CChar>?
        guard notify_get_server_info(&name, &vendor, &version, &spec) != 0 else { return nil }
        defer { g_free(name); g_free(vendor); g_free(version); g_free(spec) }
        func text(_ p: UnsafeMutablePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }
        return DesktopFacts.Server(name: text(name), vendor: text(vendor), version: text(version),
                                   capabilities: capabilityNames() ?? [], processID: ownerProcessID())
    }

    /// The process that owns org.freedesktop.Notifications (GetConnectionUnixProcessID), so its
    /// command line and environment can say which config files it read. nil when the bus does not
    /// say (another PID namespace, a bus without the call).
    static func ownerProcessID() -> Int32? {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else { g_clear_error(&error); return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        var argument: OpaquePointer? = g_variant_new_string("org.freedesktop.Notifications")
        let parameters = g_variant_new_tuple(&argument, 1)
        let replyType = g_variant_type_new("(u)")
        defer { g_variant_type_free(replyType) }
        guard let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                      "GetConnectionUnixProcessID", parameters, replyType,
                                                      G_DBUS_CALL_FLAGS_NONE, 3000, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        defer { g_variant_unref(reply) }
        let child = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(child) }
        let pid = g_variant_get_uint32(child)
        return pid > 0 && pid <= UInt32(Int32.max) ? Int32(pid) : nil
    }
}
