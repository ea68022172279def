import CGLibNotify
import Foundation
import TestSupport
import XCTest

/// A notification server on a test's private bus, as notification spec 1.2 describes one: it owns
/// org.freedesktop.Notifications, records every Notify call with its hints, and clicks on
/// request: `ActivationToken` (when given one) and then `ActionInvoked`, the order GNOME Shell,
/// mako and swaync send them in. Its connection is served by a thread of its own, so the test's
/// thread can wait while the host talks to it.
final class FakeNotificationServer: @unchecked Sendable {
    /// One Notify call as the bus carried it. Hints of type string are kept as they are; others
    /// in GVariant's text form.
    struct Call {
        var id: UInt32
        var appName: String
        var summary: String
        var actions: [String]
        var hints: [String: String]
    }

    static let path = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"

    private let lock = NSLock()
    private var recorded: [Call] = []
    private var lastID: UInt32 = 0
    private var startFailure: String?
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private var connection: OpaquePointer?

    /// Connects to the bus at `address`, owns the name, and returns once it serves calls.
    init(address: String) throws {
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            g_main_context_push_thread_default(context)
            let failure = serve(address: address)
            lock.withLock { startFailure = failure }
            ready.signal()
            if failure == nil { g_main_loop_run(loop) }
            g_main_context_pop_thread_default(context)
        }
        thread.start()
        ready.wait()
        if let failure = lock.withLock({ startFailure }) { throw XCTSkip("the fake notification server could not start: \(failure)") }
    }

    /// Every Notify call so far.
    var calls: [Call] { lock.withLock { recorded } }

    /// The first Notify call within `timeout`, or nil.
    func firstCall(timeout: TimeInterval) -> Call? {
        _ = waitUntil(timeout: timeout) { !calls.isEmpty }
        return calls.first
    }

    /// A click: `ActivationToken` for `id` when `token` is given, then `ActionInvoked`.
    func invoke(_ action: String, on id: UInt32, token: String?) {
        if let token { emit("ActivationToken", id, token) }
        emit("ActionInvoked", id, action)
    }

    func stop() {
        g_main_loop_quit(loop)
        if let connection { g_dbus_connection_close_sync(connection, nil, nil) }
    }

    deinit { stop() }

    // MARK: - On the server's thread

    private static let introspection = """
        <node><interface name="org.freedesktop.Notifications">
          <method name="GetCapabilities"><arg direction="out" type="as"/></method>
          <method name="Notify">
            <arg direction="in" type="s"/><arg direction="in" type="u"/><arg direction="in" type="s"/>
            <arg direction="in" type="s"/><arg direction="in" type="s"/><arg direction="in" type="as"/>
            <arg direction="in" type="a{sv}"/><arg direction="in" type="i"/><arg direction="out" type="u"/>
          </method>
          <method name="CloseNotification"><arg direction="in" type="u"/></method>
          <method name="GetServerInformation">
            <arg direction="out" type="s"/><arg direction="out" type="s"/><arg direction="out" type="s"/><arg direction="out" type="s"/>
          </method>
          <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
          <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
          <signal name="ActivationToken"><arg type="u"/><arg type="s"/></signal>
        </interface></node>
        """

    /// Connects, registers the object and owns the name; nil, or what went wrong.
    private func serve(address: String) -> String? {
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                         | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            return message(&error)
        }
        self.connection = connection
        guard let node = g_dbus_node_info_new_for_xml(Self.introspection, &error) else { return message(&error) }
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, _, _, _, method, parameters, invocation, data in
            let server = Unmanaged<FakeNotificationServer>.fromOpaque(data!).takeUnretainedValue()
            server.answer(String(cString: method!), parameters!, invocation!)
        }
        let registered = g_dbus_connection_register_object(connection, Self.path, node.pointee.interfaces[0], &vtable,
                                                           Unmanaged.passUnretained(self).toOpaque(), nil, &error)
        g_dbus_node_info_unref(node)
        guard registered != 0 else { return message(&error) }
        // DO_NOT_QUEUE: a name someone else holds is an error here, not a wait.
        let reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                "RequestName", tuple([g_variant_new_string(Self.interface), g_variant_new_uint32(4)]),
                                                nil, G_DBUS_CALL_FLAGS_NONE, -1, nil, &error)
        guard let reply else { return message(&error) }
        defer { g_variant_unref(reply) }
        let owner = g_variant_get_uint32(child(reply, 0))
        return owner == 1 ? nil : "RequestName answered \(owner), not primary owner"
    }

    private func answer(_ method: String, _ parameters: OpaquePointer, _ invocation: OpaquePointer) {
        switch method {
        case "GetCapabilities":
            var names: [UnsafePointer<CChar>?] = [UnsafePointer(strdup("actions")), UnsafePointer(strdup("body"))]
            defer { names.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
            g_dbus_method_invocation_return_value(invocation, tuple([g_variant_new_strv(&names, gssize(names.count))]))
        case "Notify":
            let id = record(parameters)
            g_dbus_method_invocation_return_value(invocation, tuple([g_variant_new_uint32(id)]))
        case "GetServerInformation":
            g_dbus_method_invocation_return_value(invocation, tuple(["fake", "headlines tests", "1", "1.2"].map { (text: String) in g_variant_new_string(text) }))
        default:
            g_dbus_method_invocation_return_value(invocation, nil)
        }
    }

    /// Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout).
    private func record(_ parameters: OpaquePointer) -> UInt32 {
        let actionsValue = child(parameters, 5), hintsValue = child(parameters, 6)
        let actions = (0..<Int(g_variant_n_children(actionsValue))).map { string(child(actionsValue, $0)) }
        var hints: [String: String] = [:]
        for k in 0..<Int(g_variant_n_children(hintsValue)) {
            let entry = child(hintsValue, k)
            let boxed = child(entry, 1)
            let value = g_variant_get_variant(boxed)!
            if String(cString: g_variant_get_type_string(value)) == "s" {
                hints[string(child(entry, 0))] = string(value)
            } else {
                let printed = g_variant_print(value, 0)!
                hints[string(child(entry, 0))] = String(cString: printed)
                g_free(printed)
            }
        }
        return lock.withLock {
            lastID += 1
            recorded.append(Call(id: lastID, appName: string(child(parameters, 0)), summary: string(child(parameters, 3)),
                                 actions: actions, hints: hints))
            return lastID
        }
    }

    private func emit(_ signal: String, _ id: UInt32, _ text: String) {
        var error: UnsafeMutablePointer<GError>?
        g_dbus_connection_emit_signal(connection, nil, Self.path, Self.interface, signal,
                                      tuple([g_variant_new_uint32(id), g_variant_new_string(text)]), &error)
        if error != nil { XCTFail("emitting \(signal): \(message(&error))") }
    }

    // MARK: - GVariant, whose varargs constructors Swift does not import

    /// A tuple of `values` (floating references, which the tuple takes).
    private func tuple(_ values: [OpaquePointer?]) -> OpaquePointer {
        values.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// Child `index` of a container. The reference is left to the process's end: the few values a
    /// test records are not worth a release each.
    private func child(_ container: OpaquePointer, _ index: Int) -> OpaquePointer {
        g_variant_get_child_value(container, gsize(index))
    }

    private func string(_ value: OpaquePointer) -> String { String(cString: g_variant_get_string(value, nil)) }

    private func message(_ error: inout UnsafeMutablePointer<GError>?) -> String {
        defer { g_clear_error(&error) }
        return error.map { String(cString: $0.pointee.message) } ?? "unknown error"
    }
}
