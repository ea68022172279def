import FoundationEssentials

/// Where notifications go: libnotify in the desktop module, a recording fake in tests.
public protocol Notifier: AnyObject {
    /// Posts one notification per headline (in the order given), then each digest (one per
    /// source, replacing that source's digest while it is still on screen). Must return at once:
    /// the host's loop never waits on a notification server.
    func post(_ headlines: [Headline], digests: [SourceDigest], now: Date)
    /// Posts the one notification that summarises what was held back (`HeldHeadlines`).
    func postHeld(_ held: HeldHeadlines, now: Date)
}
