import FoundationEssentials

/// Where notifications go: libnotify in the desktop module, a recording fake in tests.
public protocol Notifier: AnyObject {
    /// Posts one notification per headline (in the order given) and, when `more` > 0, a summary.
    /// Must return at once: the host's loop never waits on a notification server.
    func post(_ headlines: [Headline], more: Int, now: Date)
}
