import CGLibNotify
import FoundationEssentials
import HeadlinesCore

/// The one way a command reaches the host: a method call on `org.headlines.Headlines1`
/// (packaging/dbus/org.headlines.Headlines1.xml). The bus starts the host by activation when none
/// runs and the service file is installed. Runs on any thread; it holds no state.
public enum BusClient {
    /// An argument or a reply value, as the interface's signatures have them.
    public indirect enum Value: Equatable, Sendable {
        case string(String)
        case int(Int)
        case bool(Bool)
        case double(Double)
        /// An array, a tuple or a dictionary entry (key, value), in order.
        case list([Value])
        public var text: String { if case let .string(s) = self { s } else { "" } }
        public var number: Int? { if case let .int(n) = self { n } else { nil } }
        public var flag: Bool { if case let .bool(b) = self { b } else { false } }
        public var real: Double? { if case let .double(d) = self { d } else { nil } }
        public var items: [Value] { if case let .list(l) = self { l } else { [] } }
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

    /// The sentence for a command that needs the host and cannot reach one.
    public static func unreachable(_ reply: Reply) -> String? {
        switch reply {
        case .noBus:
            return "there is no session bus to reach the host on: run `headlines run` in this session, or log in to a desktop session"
        case .noHost:
            return "no host runs, and the session bus cannot start one (org.headlines.Headlines.service is not installed): run `headlines run`, or install headlines"
        case let .failed(message): return "the host answered: " + TerminalText.safe(message)
        case .values: return nil
        }
    }

    /// Calls `method` with `arguments`: the reply's values in order. `timeout` covers an
    /// activation; `start: false` asks only a running host.
    public static func call(_ method: String, _ arguments: [Value] = [], start: Bool = true, timeout: Int32 = 30_000) -> Reply {
        guard let connection = sessionBus() else { return .noBus }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        return call(on: connection, method, arguments, start: start, timeout: timeout)
    }

    /// Asks the bus to start the host by activation (StartServiceByName): `.values([1])` when it
    /// started one, `.values([2])` when one already ran, `.noHost` with no service file installed.
    public static func startHost(timeout: Int32 = 30_000) -> Reply {
        guard let connection = sessionBus() else { return .noBus }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        var children: [OpaquePointer?] = [g_variant_new_string(BusService.name), g_variant_new_uint32(0)]
        var error: UnsafeMutablePointer<GError>?
        guard let reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                      "org.freedesktop.DBus", "StartServiceByName",
                                                      g_variant_new_tuple(&children, 2), nil, G_DBUS_CALL_FLAGS_NONE,
                                                      timeout, nil, &error) else {
            return failure(error)
        }
        defer { g_variant_unref(reply) }
        return .values(value(of: reply).items)
    }

    /// `GetStatus`'s dictionary by key; nil when no host answers. Never starts one.
    public static func status(widget: String) -> [String: Value]? {
        guard case let .values(reply) = call("GetStatus", [.string(widget)], start: false, timeout: 5000) else { return nil }
        return dictionary(reply.first)
    }

    /// An `a{sv}` as a Swift dictionary.
    public static func dictionary(_ value: Value?) -> [String: Value] {
        var out: [String: Value] = [:]
        for entry in value?.items ?? [] where entry.items.count == 2 { out[entry.items[0].text] = entry.items[1] }
        return out
    }

    /// Runs `ask` (which calls methods on the connection it is given and names the widgets whose
    /// reload to wait for), then waits up to `seconds` for a `ReloadFinished` of each: each one's
    /// result, by widget. The signal is subscribed to before `ask` runs, so none is missed.
    public static func awaitReloads(seconds: Double, ask: (OpaquePointer) -> (reply: Reply, widgets: Set<String>))
        -> (reply: Reply, results: [String: String]) {
        guard let connection = sessionBus() else { return (.noBus, [:]) }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        // The subscription's callbacks run in the thread-default context at subscription time:
        // a private one, iterated here only.
        let context = g_main_context_new()
        g_main_context_push_thread_default(context)
        defer {
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
        }
        let box = Unmanaged.passRetained(SignalBox()).toOpaque()
        let subscription = g_dbus_connection_signal_subscribe(connection, BusService.name, BusService.interface, "ReloadFinished",
                                                              BusService.path, nil, G_DBUS_SIGNAL_FLAGS_NONE, { _, _, _, _, _, parameters, data in
            let values = BusClient.value(of: parameters).items
            guard values.count == 2 else { return }
            Unmanaged<SignalBox>.fromOpaque(data!).takeUnretainedValue().results.append((values[0].text, values[1].text))
        }, box, { data in Unmanaged<SignalBox>.fromOpaque(data!).release() })
        defer { g_dbus_connection_signal_unsubscribe(connection, subscription) }
        let signals = Unmanaged<SignalBox>.fromOpaque(box).takeUnretainedValue()
        let (reply, widgets) = ask(connection)
        guard case .values = reply else { return (reply, [:]) }
        // One timeout source, at the deadline: the loop below sleeps until a signal or it.
        let timer = g_timeout_source_new(UInt32(max(0, min(seconds, 86400)) * 1000))
        g_source_set_callback(timer, { data in
            Unmanaged<SignalBox>.fromOpaque(data!).takeUnretainedValue().timedOut = true
            return 0
        }, box, nil)
        g_source_attach(timer, context)
        defer { g_source_destroy(timer); g_source_unref(timer) }
        var results: [String: String] = [:]
        while true {
            for (widget, result) in signals.results where widgets.contains(widget) { results[widget] = result }
            signals.results = []
            if widgets.isSubset(of: Set(results.keys)) || signals.timedOut { break }
            g_main_context_iteration(context, 1)
        }
        return (reply, results)
    }

    /// `call` on a connection already open (inside `awaitReloads`).
    public static func call(on connection: OpaquePointer, _ method: String, _ arguments: [Value] = [], start: Bool = true,
                            timeout: Int32 = 30_000) -> Reply {
        call(on: connection, (BusService.name, BusService.path, BusService.interface), method, arguments, start: start, timeout: timeout)
    }

    /// A method of another program on the session bus (`headlines doctor` asks GNOME Shell), which
    /// is never started for it; `.noHost` when it does not run.
    public static func call(_ service: (name: String, path: String, interface: String), _ method: String, _ arguments: [Value],
                            timeout: Int32 = 3000) -> Reply {
        guard let connection = sessionBus() else { return .noBus }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        return call(on: connection, service, method, arguments, start: false, timeout: timeout)
    }

    private static func call(on connection: OpaquePointer, _ service: (name: String, path: String, interface: String), _ method: String,
                             _ arguments: [Value], start: Bool, timeout: Int32) -> Reply {
        var children: [OpaquePointer?] = arguments.map(variant)
        let parameters = g_variant_new_tuple(&children, gsize(children.count))
        var error: UnsafeMutablePointer<GError>?
        guard let reply = g_dbus_connection_call_sync(connection, service.name, service.path, service.interface,
                                                      method, parameters, nil, start ? G_DBUS_CALL_FLAGS_NONE : G_DBUS_CALL_FLAGS_NO_AUTO_START,
                                                      timeout, nil, &error) else {
            return failure(error)
        }
        defer { g_variant_unref(reply) }
        return .values(value(of: reply).items)
    }

    private final class SignalBox: @unchecked Sendable {
        var results: [(String, String)] = []
        var timedOut = false
    }

    private static func sessionBus() -> OpaquePointer? {
        var error: UnsafeMutablePointer<GError>?
        let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error)
        g_clear_error(&error)
        return connection
    }

    private static func variant(_ value: Value) -> OpaquePointer? {
        switch value {
        case let .string(s): return g_variant_new_string(s)
        case let .int(n): return g_variant_new_int32(Int32(clamping: n))
        case let .bool(b): return g_variant_new_boolean(b ? 1 : 0)
        case let .double(d): return g_variant_new_double(d)
        case let .list(items):
            var children = items.map(variant)
            return g_variant_new_tuple(&children, gsize(children.count))
        }
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

    /// Any reply value as a `Value`: strings, integers and booleans, containers as lists.
    static func value(of variant: OpaquePointer?) -> Value {
        guard let variant else { return .list([]) }
        let type = String(cString: g_variant_get_type_string(variant))
        switch type.first {
        case "s", "o", "g": return .string(String(cString: g_variant_get_string(variant, nil)))
        case "i": return .int(Int(g_variant_get_int32(variant)))
        case "u": return .int(Int(g_variant_get_uint32(variant)))
        case "x": return .int(Int(g_variant_get_int64(variant)))
        case "b": return .bool(g_variant_get_boolean(variant) != 0)
        case "d": return .double(g_variant_get_double(variant))
        case "v":
            let inner = g_variant_get_variant(variant)
            defer { g_variant_unref(inner) }
            return value(of: inner)
        default:
            guard g_variant_is_container(variant) != 0 else { return .list([]) }
            return .list((0..<g_variant_n_children(variant)).map { i in
                let child = g_variant_get_child_value(variant, i)
                defer { g_variant_unref(child) }
                return value(of: child)
            })
        }
    }
}
