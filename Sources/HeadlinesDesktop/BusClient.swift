import CGLibNotify
import FoundationEssentials
import HeadlinesCore
#if canImport(Glibc)
import Glibc
#endif

/// The one way a command talks to the running host: a method call on `org.headlines.Headlines1`
/// (packaging/dbus/org.headlines.Headlines1.xml). The bus starts the host by activation when
/// none runs and the service file is installed. Runs on any thread; it holds no state.
public enum BusClient {
    /// An argument or a reply value, as the interface's signatures have them (s, i).
    public enum Value: Equatable, Sendable {
        case string(String)
        case int(Int)
        public var text: String { if case let .string(s) = self { s } else { "" } }
        public var number: Int? { if case let .int(n) = self { n } else { nil } }
    }

    public enum Reply: Equatable, Sendable {
        case values([Value])
        /// No session bus to connect to (a bare tty, DBUS_SESSION_BUS_ADDRESS=disabled:).
        case noBus
        /// No host owns the name and the bus cannot start one (no service file installed).
        case noHost
        /// The host, or the bus, answered with an error: its message.
        case failed(String)
    }

    /// Calls `method` with `arguments`; the reply's strings and integers in order (a dictionary's
    /// values are left out: GetStatus has `status(widget:)`). `timeout` covers an activation;
    /// `start: false` asks only a running host (a change the next host reads from its file anyway).
    public static func call(_ method: String, _ arguments: [Value] = [], start: Bool = true, timeout: Int32 = 30_000) -> Reply {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            if let error { g_error_free(error) }
            return .noBus
        }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        var children: [OpaquePointer?] = arguments.map {
            switch $0 {
            case let .string(s): g_variant_new_string(s)
            case let .int(n): g_variant_new_int32(Int32(clamping: n))
            }
        }
        let parameters = g_variant_new_tuple(&children, gsize(children.count))
        guard let reply = g_dbus_connection_call_sync(connection, BusService.name, BusService.path, BusService.interface,
                                                      method, parameters, nil, start ? G_DBUS_CALL_FLAGS_NONE : G_DBUS_CALL_FLAGS_NO_AUTO_START,
                                                      timeout, nil, &error) else {
            return failure(error)
        }
        defer { g_variant_unref(reply) }
        return .values(values(of: reply))
    }

    /// Asks the bus to start the host by activation (StartServiceByName): `.values([1])` when it
    /// started one, `.values([2])` when one already ran, `.noHost` with no service file installed.
    public static func startHost(timeout: Int32 = 30_000) -> Reply {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            if let error { g_error_free(error) }
            return .noBus
        }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        var children: [OpaquePointer?] = [g_variant_new_string(BusService.name), g_variant_new_uint32(0)]
        guard let reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                      "org.freedesktop.DBus", "StartServiceByName",
                                                      g_variant_new_tuple(&children, 2), nil, G_DBUS_CALL_FLAGS_NONE,
                                                      timeout, nil, &error) else {
            return failure(error)
        }
        defer { g_variant_unref(reply) }
        let result = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(result) }
        return .values([.int(Int(g_variant_get_uint32(result)))])
    }

    /// Repeats `call` while no host owns the name yet, for a host just started: its last reply.
    public static func awaitHost(seconds: Double = 10, _ call: () -> Reply) -> Reply {
        var reply = call()
        var waited = 0.0
        while reply == .noHost, waited < seconds {
            usleep(50_000)
            waited += 0.05
            reply = call()
        }
        return reply
    }

    /// A failed call's error as a reply: no host for the bus's "no such name" errors.
    private static func failure(_ error: UnsafeMutablePointer<GError>?) -> Reply {
        guard let error else { return .failed("no answer") }
        defer { g_error_free(error) }
        let remote = g_dbus_error_get_remote_error(error).map { name in
            defer { g_free(name) }
            return String(cString: name)
        }
        if remote == "org.freedesktop.DBus.Error.ServiceUnknown" || remote == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            return .noHost
        }
        g_dbus_error_strip_remote_error(error)
        return .failed(String(cString: error.pointee.message))
    }

    /// `GetStatus`'s dictionary, its strings and integers by key.
    public static func status(widget: String) -> [String: Value]? {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        var children: [OpaquePointer?] = [g_variant_new_string(widget)]
        guard let reply = g_dbus_connection_call_sync(connection, BusService.name, BusService.path, BusService.interface,
                                                      "GetStatus", g_variant_new_tuple(&children, 1), nil,
                                                      G_DBUS_CALL_FLAGS_NO_AUTO_START, 5000, nil, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        defer { g_variant_unref(reply) }
        let dictionary = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(dictionary) }
        var found: [String: Value] = [:]
        for i in 0..<g_variant_n_children(dictionary) {
            let entry = g_variant_get_child_value(dictionary, i)
            defer { g_variant_unref(entry) }
            let key = g_variant_get_child_value(entry, 0), boxed = g_variant_get_child_value(entry, 1)
            let value = g_variant_get_variant(boxed)
            defer { g_variant_unref(key); g_variant_unref(boxed); g_variant_unref(value) }
            if let parsed = scalar(value) { found[String(cString: g_variant_get_string(key, nil))] = parsed }
        }
        return found
    }

    private static func values(of tuple: OpaquePointer) -> [Value] {
        (0..<g_variant_n_children(tuple)).compactMap { i in
            let child = g_variant_get_child_value(tuple, i)
            defer { g_variant_unref(child) }
            return scalar(child)
        }
    }

    private static func scalar(_ value: OpaquePointer?) -> Value? {
        if withVariantType("s", { g_variant_is_of_type(value, $0) }) != 0 {
            return .string(String(cString: g_variant_get_string(value, nil)))
        }
        if withVariantType("i", { g_variant_is_of_type(value, $0) }) != 0 { return .int(Int(g_variant_get_int32(value))) }
        return nil
    }
}
