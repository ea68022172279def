import CGLibNotify
import FoundationEssentials
import HeadlinesCore
import Synchronization

/// Posts headlines through libnotify. Every libnotify call runs on a `NotificationWorker`, so the
/// host's loop never waits on the notification server. Each NotifyNotification is kept alive
/// until the server says it closed, so a click works however long it stays on screen.
///
/// Threads: `post`, `closeAll` and the counts may be called from any thread; everything they do
/// with libnotify runs on the worker, and so do the click and `closed` callbacks. The mutable
/// state is behind locks (uncontended: the worker is the only thread that touches `state`),
/// never held across a libnotify call, so a callback that re-enters cannot deadlock.
public final class LibnotifyNotifier: Notifier, Sendable {
    private let worker = NotificationWorker(name: "notifications")
    private struct State {
        var serverDown = false
        /// Notifications on screen, each holding one reference until its `closed` signal; kept
        /// as addresses (Sendable), turned back into pointers only on the worker.
        var live: Set<UInt> = []
        /// New headlines not shown while the server kept quiet (Do Not Disturb), for the one
        /// summary posted when it no longer does.
        var heldForDoNotDisturb = 0
        /// While something is held: the subscription to the server's property changes that may
        /// end Do Not Disturb (`DoNotDisturb.watch`), 0 otherwise.
        var quietWatch: UInt32 = 0
        /// Each source's digest still on screen (its address, and what it counts), to be
        /// updated in place by the next digest of that source.
        var digests: [String: (address: UInt, digest: SourceDigest)] = [:]
    }
    private let state = SanitizedMutex(State())
    /// Counters for the leak test: notifications created and finalized (g_object_weak_ref).
    private let counters = Counters()
    private struct Handlers {
        var onMute: (@Sendable (String) -> Void)?
        var onMore: (@Sendable (String?) -> Void)?
        var onRead: (@Sendable (Headline) -> Void)?
    }
    private let handlers = SanitizedMutex(Handlers())
    /// Stored image paths by headline id, from the last reload (`useImages`).
    private let images = SanitizedMutex([String: String]())

    /// Called on the worker thread when "Mute source" is clicked.
    public var onMute: (@Sendable (String) -> Void)? {
        get { handlers.withLock { $0.onMute } }
        set { handlers.withLock { $0.onMute = newValue } }
    }
    /// Called on the worker thread when a digest, or a summary of held headlines, is clicked,
    /// with the activation token the server sent for the click, if any.
    public var onMore: (@Sendable (String?) -> Void)? {
        get { handlers.withLock { $0.onMore } }
        set { handlers.withLock { $0.onMore = newValue } }
    }

    /// Called on the worker thread when a headline is opened or "Mark read" is clicked, for a
    /// sync service's headlines (set only then: it also offers "Mark read").
    public var onRead: (@Sendable (Headline) -> Void)? {
        get { handlers.withLock { $0.onRead } }
        set { handlers.withLock { $0.onRead = newValue } }
    }

    public init() {
        // libnotify prints its own g_warning for every failed call; we log one sentence instead.
        g_log_set_handler("libnotify", GLogLevelFlags(rawValue: G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_MESSAGE.rawValue),
                          { _, _, _, _ in }, nil)
    }

    /// The images the next `post` attaches (headline id to a stored PNG), from the reload report.
    public func useImages(_ paths: [String: String]) {
        images.withLock { $0 = paths }
    }

    public func post(_ headlines: [Headline], digests: [SourceDigest], now: Date) {
        let paths = images.withLock { $0 }
        let more = digests.reduce(0) { $0 + $1.count }
        worker.submit { [self] in
            guard let caps = currentCapabilities(), !keptQuiet(adding: headlines.count + more, caps: caps) else { return }
            for headline in headlines {
                show(NotificationContent.headline(headline, now: now, caps: caps, markRead: onRead != nil), action: .open(headline),
                     image: paths[headline.id])
            }
            for digest in digests { show(digest, caps: caps) }
        }
    }

    public func postHeld(_ held: HeldHeadlines, now: Date) {
        worker.submit { [self] in
            guard let caps = currentCapabilities(), !keptQuiet(adding: held.count, caps: caps) else { return }
            show(NotificationContent.held(held, caps: caps), action: .more)
        }
    }

    /// After a reload that posted nothing: if headlines were held for Do Not Disturb and it has
    /// ended, their summary is posted now rather than with the next new headline.
    public func postHeldIfQuietEnded() {
        guard heldForDoNotDisturb > 0 else { return }
        worker.submit { [self] in
            guard let caps = currentCapabilities() else { return }
            _ = keptQuiet(adding: 0, caps: caps)
        }
    }

    /// Headlines held back while the server keeps quiet, not yet summarised.
    public var heldForDoNotDisturb: Int { state.withLock { $0.heldForDoNotDisturb } }

    /// Returns once every batch posted so far has been sent to the server.
    public func waitUntilPosted() {
        worker.sync {}
    }

    /// Notification objects created and not yet finalized. Waits for the worker to be idle.
    public func liveObjectCount() -> Int {
        waitUntilPosted()
        return counters.value.withLock { $0.created - $0.finalized }
    }

    public var createdCount: Int { counters.value.withLock { $0.created } }

    /// Asks the server to close every notification still on screen (the server then sends
    /// NotificationClosed, and each object is released in its `closed` handler). Waits for the
    /// worker to send the requests.
    public func closeAll() {
        worker.sync { [self] in
            for address in state.withLock({ $0.live }) {
                guard let object = UnsafeMutablePointer<NotifyNotification>(bitPattern: address) else { continue }
                notify_notification_close(object, nil)
            }
        }
    }

    // MARK: - On the worker thread

    /// The server's capabilities, asked again for every batch: xfce4-notifyd drops `actions`
    /// during do-not-disturb and takes it back after, without leaving the bus, and another server
    /// can take the name over at any time; one GetCapabilities per reload that notifies costs a
    /// round trip on this thread, never on the loop. nil when no server answers (GetCapabilities
    /// is also the cheapest way to learn whether one is there at all).
    private func currentCapabilities() -> NotificationCapabilities? {
        if notify_is_initted() == 0 && notify_init(NotificationContent.appName) == 0 {
            markDown("libnotify could not start")
            return nil
        }
        guard let names = NotificationServerProbe.capabilityNames() else {
            markDown("no notification server answers on the session bus")
            return nil
        }
        return NotificationCapabilities(names: names)
    }

    /// Whether the server keeps quiet now; then `count` more headlines are held back. When it
    /// has stopped, the one summary of those it held is posted first.
    private func keptQuiet(adding count: Int, caps: NotificationCapabilities) -> Bool {
        let name = NotificationServerProbe.serverName() ?? ""
        if DoNotDisturb.isOn(serverName: name) {
            let (total, watching) = state.withLock { s in
                s.heldForDoNotDisturb += count
                return (s.heldForDoNotDisturb, s.quietWatch != 0)
            }
            if total > 0 && !watching { watchForTheEndOfQuiet() }
            if count > 0 {
                HostLog.info("the notification server is in Do Not Disturb: holding \(NumberText.counted(total, "new headline")) for one summary when it ends")
            }
            return true
        }
        let (held, watch) = state.withLock { s in
            defer { s.heldForDoNotDisturb = 0; s.quietWatch = 0 }
            return (s.heldForDoNotDisturb, s.quietWatch)
        }
        DoNotDisturb.unwatch(watch)
        if held > 0 {
            HostLog.info("Do Not Disturb has ended; summarising \(NumberText.counted(held, "held headline"))")
            show(NotificationContent.held(HeldHeadlines(count: held, reason: .doNotDisturb), caps: caps), action: .more)
        }
        return false
    }

    /// Subscribed on the worker, so the server's signals arrive here, on the worker: when one
    /// may have ended Do Not Disturb, the summary of what was held goes out then, not at the next
    /// reload. Nothing is subscribed while nothing is held.
    private func watchForTheEndOfQuiet() {
        let subscription = DoNotDisturb.watch { [weak self] in
            guard let self, self.heldForDoNotDisturb > 0, let caps = self.currentCapabilities() else { return }
            _ = self.keptQuiet(adding: 0, caps: caps)
        }
        state.withLock { $0.quietWatch = subscription }
    }

    private func markDown(_ why: String) {
        let wasDown = state.withLock { s in
            defer { s.serverDown = true }
            return s.serverDown
        }
        if !wasDown { HostLog.warning("notifications are off for now: \(why); they resume when a server appears") }
    }

    enum Action { case open(Headline), more }

    /// A source's digest: the one still on screen, updated to count these too (Notify with its
    /// `replaces_id`); a new one when there is none, or the update fails.
    private func show(_ digest: SourceDigest, caps: NotificationCapabilities) {
        if let shown = state.withLock({ $0.digests[digest.source] }),
           let n = UnsafeMutablePointer<NotifyNotification>(bitPattern: shown.address) {
            let sum = shown.digest.adding(digest)
            let content = NotificationContent.digest(sum, caps: caps)
            notify_notification_update(n, content.summary, content.body, NotificationContent.iconName)
            var error: UnsafeMutablePointer<GError>?
            if notify_notification_show(n, &error) != 0 {
                state.withLock { $0.digests[digest.source] = (shown.address, sum) }
                return
            }
            g_clear_error(&error)
        }
        show(NotificationContent.digest(digest, caps: caps), action: .more, digest: digest)
    }

    private func show(_ content: NotificationContent, action: Action, image: String? = nil, digest: SourceDigest? = nil) {
        guard let n = notify_notification_new(content.summary, content.body, NotificationContent.iconName) else { return }
        let object = UnsafeMutableRawPointer(n)
        counters.value.withLock { $0.created += 1 }
        g_object_weak_ref(object.assumingMemoryBound(to: GObject.self), { data, _ in
            Unmanaged<Counters>.fromOpaque(data!).takeUnretainedValue().value.withLock { $0.finalized += 1 }
        }, Unmanaged.passUnretained(counters).toOpaque())
        Self.identify(n, as: content.category)
        notify_notification_set_urgency(n, NOTIFY_URGENCY_LOW)
        notify_notification_set_timeout(n, NotificationContent.expireMilliseconds)
        // A path the server reads itself; a file that went away only costs the picture.
        if let image, image.hasPrefix("/") { notify_notification_set_hint(n, "image-path", g_variant_new_string(image)) }
        addActions(n, content.actions, action)
        connectClosed(n)
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_show(n, &error) == 0 {
            let why = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            markDown(why)
            g_object_unref(object)
            return
        }
        let wasDown = state.withLock { s in
            defer {
                s.serverDown = false
                s.live.insert(UInt(bitPattern: object))
                if let digest { s.digests[digest.source] = (UInt(bitPattern: object), digest) }
            }
            return s.serverDown
        }
        if wasDown { HostLog.info("notification server is back; notifications resumed") }
    }

    /// What every notification of ours says it is: the app, the desktop file (KDE keeps one in
    /// its history only when this names an installed file; swaync groups by it) and the category
    /// a user's server rules match.
    static func identify(_ n: UnsafeMutablePointer<NotifyNotification>, as category: NotificationContent.Category) {
        notify_notification_set_app_name(n, NotificationContent.appName)
        notify_notification_set_category(n, category.rawValue)
        notify_notification_set_hint(n, "desktop-entry", g_variant_new_string(NotificationContent.desktopEntry))
    }

    private func connectClosed(_ n: UnsafeMutablePointer<NotifyNotification>) {
        let closed: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { object, data in
            let notifier = Unmanaged<LibnotifyNotifier>.fromOpaque(data!).takeUnretainedValue()
            guard let object else { return }
            // Unref outside the lock: finalization runs the weak-ref notify.
            let address = UInt(bitPattern: object)
            let wasLive = notifier.state.withLock { s in
                s.digests = s.digests.filter { $0.value.address != address }
                return s.live.remove(address) != nil
            }
            if wasLive { g_object_unref(object) }
        }
        g_signal_connect_data(UnsafeMutableRawPointer(n), "closed", unsafeBitCast(closed, to: GCallback.self),
                              Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(0))
    }

    /// Made, used and released on the worker (libnotify's action callback and its free func).
    private final class ActionBox {
        let action: Action
        weak let notifier: LibnotifyNotifier?
        init(_ action: Action, _ notifier: LibnotifyNotifier) { self.action = action; self.notifier = notifier }
    }

    private func addActions(_ n: UnsafeMutablePointer<NotifyNotification>, _ actions: [NotificationContent.Action], _ action: Action) {
        let callback: NotifyActionCallback = { n, key, data in
            let box = Unmanaged<ActionBox>.fromOpaque(data!).takeUnretainedValue()
            let key = key.map { String(cString: $0) } ?? ""
            // Sent by the server just before the action (spec 1.2; GNOME Shell, mako, swaync), and
            // readable only inside this callback: what lets the browser come to the front.
            let token = n.flatMap { notify_notification_get_activation_token($0) }.map { String(cString: $0) }
            box.notifier?.invoked(key, box.action, activationToken: token)
        }
        let free: GFreeFunc = { data in Unmanaged<ActionBox>.fromOpaque(data!).release() }
        for item in actions {
            notify_notification_add_action(n, item.key, item.label, callback,
                                           Unmanaged.passRetained(ActionBox(action, self)).toOpaque(), free)
        }
    }

    /// A click on a notification: a link that cannot open is said in the log and, since nobody
    /// reads the log at that moment, in a notification.
    private func open(_ url: URL, activationToken: String?) {
        do { try URLLauncher.open(url, activation: .token(activationToken)) } catch {
            HostLog.warning(error.description)
            ClickFailure.notify(error.description)
        }
    }

    private func invoked(_ key: String, _ action: Action, activationToken: String?) {
        switch (key, action) {
        case ("default", let .open(headline)):
            open(headline.url, activationToken: activationToken)
            onRead?(headline)
        case ("mark-read", let .open(headline)):
            onRead?(headline)
        case ("comments", let .open(headline)):
            guard let comments = headline.commentsURL else { break }
            open(comments, activationToken: activationToken)
        case ("mute", let .open(headline)):
            onMute?(headline.source)
        case (_, .more):
            onMore?(activationToken)
        default:
            break
        }
    }
}

/// Created/finalized tallies. Weak-ref notifies run wherever the last unref happens (the worker,
/// in practice), and tests read the tallies from their own thread: hence the lock.
private final class Counters: Sendable {
    struct Tally { var created = 0; var finalized = 0 }
    let value = SanitizedMutex(Tally())
}
