import CGLibNotify
import HeadlinesCore

/// Whether the notification server is keeping quiet (Do Not Disturb), each server in its own
/// way. Synchronous calls, bounded in time: made on the notification worker before each batch,
/// never on the host's loop. Anything that cannot be asked counts as "not quiet": a question
/// that fails must not silence notifications.
enum DoNotDisturb {
    static let gnomeSchema = "org.gnome.desktop.notifications"

    /// `serverName`: GetServerInformation's name. dunst keeps notifications while paused and
    /// releases them all at once, so it is asked with `dunstctl is-paused`; GNOME Shell has no
    /// D-Bus property, only its `show-banners` setting; KDE Plasma and swaync say it in the
    /// spec's `Inhibited` property.
    static func isOn(serverName: String, environment: [String: String]) -> Bool {
        switch serverName {
        case "dunst": dunstPaused(environment)
        case "gnome-shell": gnomeBannersOff()
        default: inhibited()
        }
    }

    private static func dunstPaused(_ environment: [String: String]) -> Bool {
        guard let run = try? ProcessLauncher.runBounded(["dunstctl", "is-paused"], environment: environment,
                                                         timeout: .seconds(2), outputLimit: 64),
              run.end == .exited(.status(0)) else { return false }
        return String(decoding: run.output, as: UTF8.self).trimmed() == "true"
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

    /// The `Inhibited` property of org.freedesktop.Notifications (spec 1.2; KDE Plasma, swaync).
    private static func inhibited() -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else { g_clear_error(&error); return false }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        var arguments: [OpaquePointer?] = [g_variant_new_string("org.freedesktop.Notifications"), g_variant_new_string("Inhibited")]
        let parameters = g_variant_new_tuple(&arguments, 2)
        let replyType = g_variant_type_new("(v)")
        defer { g_variant_type_free(replyType) }
        guard let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                                      "org.freedesktop.DBus.Properties", "Get", parameters, replyType,
                                                      G_DBUS_CALL_FLAGS_NO_AUTO_START, 2000, nil, &error) else {
            g_clear_error(&error) // a server without the property: not inhibited
            return false
        }
        defer { g_variant_unref(reply) }
        let boxed = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(boxed) }
        guard let value = g_variant_get_variant(boxed) else { return false }
        defer { g_variant_unref(value) }
        guard withVariantType("b", { g_variant_is_of_type(value, $0) }) != 0 else { return false }
        return g_variant_get_boolean(value) != 0
    }
}
