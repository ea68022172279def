import CGLibNotify
import HeadlinesCore

/// A click that opened nothing (no default browser, no launcher, a launcher that failed) must be
/// told where the user looks: waybar and i3blocks drop the stderr of what a click runs, and the
/// host's log is read by nobody at that moment. So it also goes out as a notification, one
/// sentence saying what to install or set.
public enum ClickFailure {
    /// Shows `sentence` as a desktop notification. False when no notification server took it.
    @discardableResult
    public static func notify(_ sentence: String) -> Bool {
        if notify_is_initted() == 0 && notify_init(NotificationContent.appName) == 0 { return false }
        guard let n = notify_notification_new("Headlines could not open it", sentence, NotificationContent.iconName) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(n)) }
        LibnotifyNotifier.identify(n, as: .error)
        var error: UnsafeMutablePointer<GError>?
        let shown = notify_notification_show(n, &error) != 0
        g_clear_error(&error)
        return shown
    }
}
