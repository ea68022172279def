import CGLibNotify
import HeadlinesCore

/// Whether the notification server is keeping quiet (Do Not Disturb), each server in its own
/// way. Synchronous calls, bounded in time: made on the notification worker before each batch,
/// never on the host's loop. Anything that cannot be asked counts as "not quiet": a question
/// that fails must not silence notifications.
enum DoNotDisturb {
    static let gnomeSchema = "org.gnome.desktop.notifications"

    /// `serverName`: GetServerInformation's name. dunst keeps notifications while paused and
    /// releases them all at once, and says so in its own `paused` property; GNOME Shell has no
    /// D-Bus property, only its `show-banners` setting; KDE Plasma and swaync say it in the
    /// spec's `Inhibited` property.
    static func isOn(serverName: String) -> Bool {
        switch serverName {
        case "dunst": booleanProperty("org.dunstproject.cmd0", "paused")
        case "gnome-shell": gnomeBannersOff()
        default: booleanProperty("org.freedesktop.Notifications", "Inhibited")
        }
    }

    /// Calls `changed` on the calling thread's default main context whenever the notification
    /// server says one of its properties changed (dunst's `paused`, the spec's `Inhibited`), so
    /// that the summary of what was held is posted when Do Not Disturb ends rather than at the
    /// next reload. GNOME's setting is not watched: its summary waits for the next reload.
    /// Returns the subscription, for `unwatch`; 0 without a session bus.
    static func watch(_ changed: @escaping @Sendable () -> Void) -> UInt32 {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else { g_clear_error(&error); return 0 }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let box = Unmanaged.passRetained(ChangeHandler(changed)).toOpaque()
        return g_dbus_connection_signal_subscribe(bus, nil, "org.freedesktop.DBus.Properties", "PropertiesChanged",
                                                  "/org/freedesktop/Notifications", nil, G_DBUS_SIGNAL_FLAGS_NONE,
                                                  { _, _, _, _, _, _, data in
            Unmanaged<ChangeHandler>.fromOpaque(data!).takeUnretainedValue().changed()
        }, box, { data in Unmanaged<ChangeHandler>.fromOpaque(data!).release() })
    }

    static func unwatch(_ subscription: UInt32) {
        guard subscription != 0 else { return }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else { g_clear_error(&error); return }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        g_dbus_connection_signal_unsubscribe(bus, subscription)
    }

    private final class ChangeHandler: Sendable {
        let changed: @Sendable () -> Void
        init(_ changed: @escaping @Sendable () -> Void) { self.changed = changed }
    }

    /// GNOME's setting, read only where its schema is installed (GSettings aborts the process
    /// on a schema it does not know).
    private static func gnomeBannersOff() -> Bool {
        guard let source = g_settings_schema_source_get_default(),
              let schema = g_settings_schema_source_lookup(source, gnomeSchema, 1) else { return false }
        defer { g_settings_schema_unref(schema) }
        guard g_settings_schema_has_key(schema, "show-banners") != 0,
              let settings = g_settings_new_full(schema, nil, nil) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(settings)) }
        return g_settings_get_boolean(settings, "show-banners") == 0
    }

    /// A boolean property of the notification server's object, read with the bus's own Get (2 s
    /// limit, never starting a server); a server without it is not quiet.
    private static func booleanProperty(_ interface: String, _ property: String) -> Bool {
        let server = ("org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.DBus.Properties")
        guard case let .values(reply) = BusClient.call(server, "Get", [.string(interface), .string(property)], timeout: 2000) else {
            return false
        }
        return reply.first == .bool(true)
    }
}
