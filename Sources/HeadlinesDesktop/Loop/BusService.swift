import BarFormats
import CBusInterface
import CGLibNotify
import FoundationEssentials
import HeadlinesCore
#if canImport(Glibc)
import Glibc
#endif

/// The host on the session bus: owns `org.headlines.Headlines` (the single-instance rule: a second
/// host cannot own it and exits, naming the owner) and exports `org.headlines.Headlines1` at
/// `/org/headlines/Headlines`, as packaging/dbus/org.headlines.Headlines1.xml defines it. One
/// per process, over every widget's `WidgetHost`; GDBus calls it on the loop thread.
@GLibActor
public final class BusService {
    public nonisolated static let name = "org.headlines.Headlines"
    public nonisolated static let path = "/org/headlines/Headlines"
    public nonisolated static let interface = "org.headlines.Headlines1"

    /// What became of owning the name.
    public enum Ownership: Sendable {
        case owned
        /// Another process owns it (its PID when the bus says).
        case taken(ownerPID: UInt32?)
        /// No session bus to connect to.
        case noBus
    }

    private var hosts: [(widget: String, host: WidgetHost)] = []
    private var connection: OpaquePointer?
    private var decided: ((Ownership) -> Void)?
    private var ownerID: UInt32 = 0

    public nonisolated init() {}

    /// Owns the name; `decided` runs once, on the loop, with the outcome.
    public func own(_ decided: @escaping (Ownership) -> Void) {
        // Connecting synchronously on the loop thread, rather than letting g_bus_own_name connect
        // in the background, keeps GIO's thread pool out of the host: its worker would idle on.
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_clear_error(&error)
            return decided(.noBus)
        }
        self.decided = decided
        register(connection)
        let me = Unmanaged.passUnretained(self).toOpaque()
        ownerID = g_bus_own_name_on_connection(connection, Self.name, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE, { _, _, data in
            let service = Unmanaged<BusService>.fromOpaque(data!).takeUnretainedValue()
            MainLoop.assumeOnLoop { service.finish(.owned) }
        }, { connection, _, data in
            let service = Unmanaged<BusService>.fromOpaque(data!).takeUnretainedValue()
            let outcome: Ownership = connection.map { .taken(ownerPID: BusService.ownerPID($0)) } ?? .noBus
            MainLoop.assumeOnLoop { service.finish(outcome) }
        }, me, nil)
    }

    /// A widget's host answers for `widget` ("" is the default widget).
    public func add(_ host: WidgetHost, widget: String?) {
        let name = widget ?? ""
        hosts.append((name, host))
        host.onReloadFinished = { [weak self] result in
            self?.emit("ReloadFinished", [g_variant_new_string(name), g_variant_new_string(result)])
            if !result.hasPrefix("failed") { self?.emit("HeadlinesChanged", [g_variant_new_string(name)]) }
        }
        host.onShownIndex = { [weak self] index in
            self?.emit("EntryChanged", [g_variant_new_string(name), g_variant_new_int32(Int32(index))])
        }
    }

    private func finish(_ outcome: Ownership) {
        guard let decided else {
            // Owned once, lost later (the bus went away or replaced us): stop.
            if case .owned = outcome { return }
            HostLog.error("lost the bus name \(Self.name); stopping")
            return MainLoop.quit()
        }
        self.decided = nil
        decided(outcome)
    }

    /// The owner of our name, asked of the bus itself.
    nonisolated static func ownerPID(_ connection: OpaquePointer) -> UInt32? {
        guard let owner = busCall(connection, "GetNameOwner", g_variant_new_string(name), "(s)") else { return nil }
        defer { g_variant_unref(owner) }
        let unique = g_variant_get_child_value(owner, 0)
        defer { g_variant_unref(unique) }
        guard let reply = busCall(connection, "GetConnectionUnixProcessID", unique, "(u)") else { return nil }
        defer { g_variant_unref(reply) }
        let pid = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(pid) }
        return g_variant_get_uint32(pid)
    }

    private nonisolated static func busCall(_ connection: OpaquePointer, _ method: String, _ argument: OpaquePointer?,
                                            _ replyType: String) -> OpaquePointer? {
        var arguments = [argument]
        let tuple = g_variant_new_tuple(&arguments, 1)
        let type = g_variant_type_new(replyType)
        defer { g_variant_type_free(type) }
        return g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                           "org.freedesktop.DBus", method, tuple, type, G_DBUS_CALL_FLAGS_NONE,
                                           2000, nil, nil)
    }

    private static let vtable: UnsafeMutablePointer<GDBusInterfaceVTable> = {
        let table = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)
        table.initialize(to: GDBusInterfaceVTable())
        table.pointee.method_call = { _, _, _, _, method, parameters, invocation, data in
            let service = Unmanaged<BusService>.fromOpaque(data!).takeUnretainedValue()
            let call = BusCall(method: String(cString: method!), parameters: parameters!, invocation: invocation!)
            MainLoop.assumeOnLoop { service.call(call.method, call.parameters, call.invocation) }
        }
        return table
    }()

    private func register(_ connection: OpaquePointer?) {
        guard let connection else { return }
        self.connection = connection
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(headlines_bus_introspection_xml(), &error),
              let interface = node.pointee.interfaces?[0] else {
            HostLog.error("the built-in D-Bus interface does not parse: \(error.map { String(cString: $0.pointee.message) } ?? "?")")
            return
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        if g_dbus_connection_register_object(connection, Self.path, interface, Self.vtable, me, nil, &error) == 0 {
            HostLog.error("could not export \(Self.path) on the bus: \(error.map { String(cString: $0.pointee.message) } ?? "?")")
        }
    }

    private func emit(_ signal: String, _ values: [OpaquePointer?]) {
        guard let connection else { return }
        var values = values
        g_dbus_connection_emit_signal(connection, nil, Self.path, Self.interface, signal,
                                      g_variant_new_tuple(&values, gsize(values.count)), nil)
    }

    // MARK: - Methods

    private func call(_ method: String, _ parameters: OpaquePointer, _ invocation: OpaquePointer) {
        let arguments = (0..<g_variant_n_children(parameters)).map { i -> BusArgument in
            let child = g_variant_get_child_value(parameters, i)!
            defer { g_variant_unref(child) }
            if withVariantType("i", { g_variant_is_of_type(child, $0) }) != 0 { return .int(Int(g_variant_get_int32(child))) }
            if withVariantType("b", { g_variant_is_of_type(child, $0) }) != 0 { return .flag(g_variant_get_boolean(child) != 0) }
            return .string(String(cString: g_variant_get_string(child, nil)))
        }
        let text = arguments.first?.text ?? ""
        let n = arguments.count > 1 ? arguments[1].number : 1

        do {
            let reply: [OpaquePointer?]
            switch method {
            case "Reload":
                var answer = (result: "started", deferredUntil: "")
                for host in try widgets(text, all: true) { answer = host.requestReload(reason: "Reload called on the bus") }
                reply = [g_variant_new_string(answer.result), g_variant_new_string(answer.deferredUntil)]
            case "Next", "Previous":
                try widget(text).rotate(by: method == "Next" ? n : -n)
                reply = []
            case "Open", "OpenHeadline":
                let comments = arguments.count > 2 ? arguments[2].flag : false
                try open(in: try widget(text), key: method == "Open" ? "" : arguments[1].text, comments: comments)
                reply = []
            case "Mute", "Unmute":
                // muted.json is shared: the first widget's host saves it and every widget applies it.
                _ = try widget("").setMuted(text, method == "Mute")
                reply = []
            case "GetStatus": reply = [status(try widget(text), name: text)]
            case "ListWidgets":
                var names = hosts.map { g_variant_new_string($0.widget) }
                reply = [withVariantType("s") { g_variant_new_array($0, &names, gsize(names.count)) }]
            case "GetHeadlines":
                var rows = (try widget(text).shown?.headlines ?? []).map { headline -> OpaquePointer? in
                    var fields = [g_variant_new_string(headline.title), g_variant_new_string(headline.source),
                                  g_variant_new_string(headline.url.absoluteString)]
                    return g_variant_new_tuple(&fields, 3)
                }
                reply = [withVariantType("(sss)") { g_variant_new_array($0, &rows, gsize(rows.count)) }]
            case "ListHeadlines":
                var rows = (try widget(text).shown?.headlines ?? []).map { headline -> OpaquePointer? in
                    var fields = [g_variant_new_string(HeadlineKey.of(id: headline.id)), g_variant_new_string(headline.title),
                                  g_variant_new_string(headline.source), g_variant_new_string(headline.url.absoluteString),
                                  g_variant_new_int64(gint64(headline.publishedAt.timeIntervalSince1970))]
                    return g_variant_new_tuple(&fields, 5)
                }
                reply = [withVariantType("(ssssx)") { g_variant_new_array($0, &rows, gsize(rows.count)) }]
            case "ListDiscussions":
                var rows = (try widget(text).shown?.headlines ?? []).compactMap { headline in
                    headline.commentsURL.map { (key: HeadlineKey.of(id: headline.id), url: $0.absoluteString) }
                }.map { discussion -> OpaquePointer? in
                    var fields = [g_variant_new_string(discussion.key), g_variant_new_string(discussion.url)]
                    return g_variant_new_tuple(&fields, 2)
                }
                reply = [withVariantType("(ss)") { g_variant_new_array($0, &rows, gsize(rows.count)) }]
            case "GetEntry":
                let shown = try widget(text).shown
                let current = shown?.current
                reply = [g_variant_new_int32(Int32(current == nil ? -1 : shown!.index)),
                         g_variant_new_string(current?.title ?? ""), g_variant_new_string(current?.source ?? ""),
                         g_variant_new_string(current?.url.absoluteString ?? "")]
            default: throw BusError("no method \(method)")
            }
            var values = reply
            g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple(&values, gsize(values.count)))
        } catch {
            g_dbus_method_invocation_return_dbus_error(invocation, Self.interface + ".Error.Failed", "\(error)")
        }
    }

    /// Opens the headline `key` names ("": the one on display), or its discussion page. The
    /// caller may be a bar's click, whose stderr nobody reads: a failure is also a notification.
    private func open(in host: WidgetHost, key: String, comments: Bool) throws {
        let found = key.isEmpty ? host.shown?.current : host.headline(key: key)
        guard let headline = found else {
            throw BusError(key.isEmpty ? "no headline is on display yet"
                           : "no headline has the id \(TerminalText.safe(String(key.prefix(80)))) any more (the list was refreshed); see `headlines list` and open one by its number")
        }
        let url = comments ? headline.commentsURL : headline.url
        guard let url else { throw BusError("this headline has no discussion page; Hacker News, Reddit and Lobsters headlines have one") }
        // The host's own token, if it was started with one, was for its start: never passed on.
        do { try URLLauncher.open(url, activation: .token(nil)) } catch {
            ClickFailure.notify(error.description)
            throw error
        }
        // Read on the sync service it came from (nothing for other sources).
        if !comments { host.markRead(headline) }
    }

    private func widget(_ name: String) throws -> WidgetHost {
        guard let host = (name.isEmpty ? hosts.first : hosts.first { $0.widget == name })?.host else {
            throw BusError("no widget \(name.isEmpty ? "(default)" : name); ListWidgets names them")
        }
        return host
    }

    /// "" with `all`: every widget.
    private func widgets(_ name: String, all: Bool) throws -> [WidgetHost] {
        name.isEmpty && all ? hosts.map(\.host) : [try widget(name)]
    }

    /// `GetStatus`: dates as Unix seconds (with their fraction), present only when known.
    private func status(_ host: WidgetHost, name: String) -> OpaquePointer? {
        let shown = host.shown, published = host.published
        var entries: [(String, OpaquePointer?)] = [
            ("pid", g_variant_new_int32(getpid())),
            ("widget", g_variant_new_string(name)),
            ("provider", g_variant_new_string(host.providerName)),
            ("headlines", g_variant_new_int32(Int32(shown?.headlines.count ?? 0))),
            ("index", g_variant_new_int32(Int32(shown?.index ?? -1))),
            ("budget_used", g_variant_new_int32(Int32(shown?.budgetUsed ?? 0))),
            ("budget_limit", g_variant_new_int32(Int32(shown?.budgetLimit ?? 0))),
            // What a widget drawn outside the host (the GNOME Shell extension) cuts titles to.
            ("max_length", g_variant_new_int32(Int32(clamping: host.setup.maxLength))),
            ("reloading", g_variant_new_boolean(host.isReloading ? 1 : 0)),
        ]
        if let held = host.heldNotifications?() {
            entries.append(("held_dnd", g_variant_new_int32(Int32(clamping: held.doNotDisturb))))
            entries.append(("held_quiet", g_variant_new_int32(Int32(clamping: held.quietHours))))
            if let until = held.quietUntil { entries.append(("quiet_until", g_variant_new_double(until.timeIntervalSince1970))) }
        }
        if let error = shown?.error { entries.append(("error", g_variant_new_string(error))) }
        if let result = published?.lastResult { entries.append(("last_result", g_variant_new_string(result))) }
        if let by = published?.deferredBy { entries.append(("deferred_by", g_variant_new_string(by.rawValue))) }
        for (key, date) in [("last_reload", published?.lastReload), ("next_reload", published?.nextReload),
                            ("deferred_until", published?.deferredUntil)] {
            if let date { entries.append((key, g_variant_new_double(date.timeIntervalSince1970))) }
        }
        var pairs = entries.map { g_variant_new_dict_entry(g_variant_new_string($0.0), g_variant_new_variant($0.1)) }
        return withVariantType("{sv}") { g_variant_new_array($0, &pairs, gsize(pairs.count)) }
    }
}

/// A method call as GDBus hands it over, on the loop thread, to be answered there.
struct BusCall: @unchecked Sendable {
    let method: String
    let parameters: OpaquePointer
    let invocation: OpaquePointer
}

/// One argument of a method call, as the interface's signatures have them.
enum BusArgument {
    case string(String)
    case int(Int)
    case flag(Bool)
    var text: String { if case let .string(s) = self { s } else { "" } }
    var number: Int { if case let .int(n) = self { n } else { 1 } }
    var flag: Bool { if case let .flag(b) = self { b } else { false } }
}

struct BusError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
