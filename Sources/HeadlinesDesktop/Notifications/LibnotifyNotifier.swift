import CGLibNotify
import FoundationEssentials
import HeadlinesCore

/// Posts headlines through libnotify. Every libnotify call runs on a `NotificationWorker`, so the
/// host's loop never waits on the notification server. Each NotifyNotification is kept alive
/// until the server says it closed, so a click works however long it stays on screen.
public final class LibnotifyNotifier: Notifier, @unchecked Sendable {
    private let worker = NotificationWorker(name: "headlines-notify")
    /// Worker-thread state (touched only on the worker).
    private var capabilities: NotificationCapabilities?
    private var serverDown = false
    private var live: Set<UnsafeMutableRawPointer> = []
    /// Counters for the leak test: notifications created and finalized (g_object_weak_ref).
    private let counters = Counters()

    /// Called on the worker thread when "Mute source" is clicked.
    public var onMute: (@Sendable (String) -> Void)?
    /// Called on the worker thread when the "N more headlines" summary is clicked.
    public var onMore: (@Sendable () -> Void)?

    public init() {
        // libnotify prints its own g_warning for every failed call; we log one sentence instead.
        g_log_set_handler("libnotify", GLogLevelFlags(rawValue: G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_MESSAGE.rawValue),
                          { _, _, _, _ in }, nil)
    }

    public func post(_ headlines: [Headline], more: Int, now: Date) {
        worker.submit { [self] in
            guard ensureReady() else { return }
            let caps = capabilities ?? []
            for headline in headlines {
                show(NotificationContent.headline(headline, now: now, caps: caps), caps: caps, action: .open(headline))
            }
            if more > 0 { show(NotificationContent.more(more, caps: caps), caps: caps, action: .more) }
        }
    }

    /// Notification objects created and not yet finalized. Waits for the worker to be idle.
    public func liveObjectCount() -> Int {
        worker.sync {}
        return counters.created - counters.finalized
    }

    public var createdCount: Int { counters.created }

    /// Asks the server to close every notification still on screen (the server then sends
    /// NotificationClosed, and each object is released in its `closed` handler). Waits for the
    /// worker to send the requests.
    public func closeAll() {
        worker.sync { [self] in
            for object in live {
                notify_notification_close(object.assumingMemoryBound(to: NotifyNotification.self), nil)
            }
        }
    }

    // MARK: - On the worker thread

    private func ensureReady() -> Bool {
        if notify_is_initted() == 0 && notify_init(NotificationContent.appName) == 0 {
            markDown("libnotify could not start")
            return false
        }
        if capabilities == nil || serverDown {
            // GetCapabilities is the cheapest way to learn whether a server is there at all.
            guard let list = notify_get_server_caps() else {
                markDown("no notification server answers on the session bus")
                return false
            }
            var names: [String] = []
            var node: UnsafeMutablePointer<GList>? = list
            while let n = node {
                if let p = n.pointee.data { names.append(String(cString: p.assumingMemoryBound(to: CChar.self))) }
                node = n.pointee.next
            }
            g_list_free_full(list, g_free)
            capabilities = NotificationCapabilities(names: names)
        }
        return true
    }

    private func markDown(_ why: String) {
        if !serverDown { HostLog.warning("notifications are off for now: \(why); they resume when a server appears") }
        serverDown = true
        capabilities = nil
    }

    enum Action { case open(Headline), more }

    private func show(_ content: NotificationContent, caps: NotificationCapabilities, action: Action) {
        guard let n = notify_notification_new(content.summary, content.body, NotificationContent.iconName) else { return }
        let object = UnsafeMutableRawPointer(n)
        counters.created += 1
        g_object_weak_ref(object.assumingMemoryBound(to: GObject.self), { data, _ in
            Unmanaged<Counters>.fromOpaque(data!).takeUnretainedValue().finalized += 1
        }, Unmanaged.passUnretained(counters).toOpaque())
        notify_notification_set_app_name(n, NotificationContent.appName)
        notify_notification_set_urgency(n, NOTIFY_URGENCY_LOW)
        notify_notification_set_timeout(n, NotificationContent.expireMilliseconds)
        notify_notification_set_category(n, NotificationContent.category)
        notify_notification_set_hint(n, "desktop-entry", g_variant_new_string(NotificationContent.desktopEntry))
        if caps.contains(.actions) { addActions(n, action) }
        connectClosed(n)
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_show(n, &error) == 0 {
            let why = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            markDown(why)
            g_object_unref(object)
            return
        }
        if serverDown { HostLog.info("notification server is back; notifications resumed") }
        serverDown = false
        live.insert(object)
    }

    private func connectClosed(_ n: UnsafeMutablePointer<NotifyNotification>) {
        let closed: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { object, data in
            let notifier = Unmanaged<LibnotifyNotifier>.fromOpaque(data!).takeUnretainedValue()
            if let object, notifier.live.remove(object) != nil { g_object_unref(object) }
        }
        g_signal_connect_data(UnsafeMutableRawPointer(n), "closed", unsafeBitCast(closed, to: GCallback.self),
                              Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(0))
    }

    private final class ActionBox {
        let action: Action
        weak var notifier: LibnotifyNotifier?
        init(_ action: Action, _ notifier: LibnotifyNotifier) { self.action = action; self.notifier = notifier }
    }

    private func addActions(_ n: UnsafeMutablePointer<NotifyNotification>, _ action: Action) {
        let callback: NotifyActionCallback = { _, key, data in
            let box = Unmanaged<ActionBox>.fromOpaque(data!).takeUnretainedValue()
            let key = key.map { String(cString: $0) } ?? ""
            box.notifier?.invoked(key, box.action)
        }
        let free: GFreeFunc = { data in Unmanaged<ActionBox>.fromOpaque(data!).release() }
        func add(_ key: String, _ label: String) {
            notify_notification_add_action(n, key, label, callback,
                                           Unmanaged.passRetained(ActionBox(action, self)).toOpaque(), free)
        }
        switch action {
        case .open:
            add("default", "Open")
            add("open", "Open")
            add("mute", "Mute source")
        case .more:
            add("default", "Show all")
        }
    }

    private func invoked(_ key: String, _ action: Action) {
        switch (key, action) {
        case ("default", let .open(headline)), ("open", let .open(headline)):
            do { try URLLauncher.open(headline.url) } catch { HostLog.warning(error.description) }
        case ("mute", let .open(headline)):
            onMute?(headline.source)
        case (_, .more):
            onMore?()
        default:
            break
        }
    }
}

/// Created/finalized tallies; touched on the worker thread only (weak-ref notifies run where the
/// last unref happens, which is the worker).
private final class Counters: @unchecked Sendable {
    var created = 0
    var finalized = 0
}
