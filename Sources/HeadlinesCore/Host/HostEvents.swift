import FoundationEssentials
import BarFormats

/// What the host is set up to do; rebuilt by the driver from the config at start and on SIGHUP.
public struct HostConfiguration: Sendable {
    public var providerName: String
    /// A digest of what decides which headlines come back (provider, feeds, URL, country,
    /// language, category, query): when it changes, the shown headlines are another source's.
    public var sourceIdentity: String
    public var interval: TimeInterval
    public var dailyBudget: Int
    /// Longest sleep, a safety net: a driver whose timers stop during a suspend still reloads
    /// within this long of waking (the host's run on CLOCK_BOOTTIME and sets it to an hour).
    public var wallClockCheck: TimeInterval = 60
    /// Lays out what to show from `content` until a reload date (the provider's rotation), pure.
    public var layout: @Sendable (_ entry: TimelineEntry, _ reloadAt: Date) -> Timeline

    public init(providerName: String, sourceIdentity: String, interval: TimeInterval, dailyBudget: Int,
                layout: @escaping @Sendable (TimelineEntry, Date) -> Timeline) {
        self.providerName = providerName
        self.sourceIdentity = sourceIdentity
        self.interval = interval
        self.dailyBudget = dailyBudget
        self.layout = layout
    }

    public var scheduler: ReloadScheduler { ReloadScheduler(budget: RefreshBudget(dailyLimit: dailyBudget)) }
}

/// What the driver read from disk when the host started.
public struct HostStart: Sendable {
    public var hostPID: Int32
    public var ledger: RefreshLedger
    public var cache: CachedHeadlines?
    public var muted: MutedSources
    public var offset: Int

    public init(hostPID: Int32, ledger: RefreshLedger, cache: CachedHeadlines?, muted: MutedSources = MutedSources(), offset: Int = 0) {
        self.hostPID = hostPID
        self.ledger = ledger
        self.cache = cache
        self.muted = muted
        self.offset = offset
    }
}

/// Something that happened, handed to `HostEngine.handle(_:at:)` with the time it happened.
public enum HostEvent: Sendable {
    /// This process holds the host lock now.
    case started(HostStart, HostConfiguration)
    /// The one timer the engine armed fired.
    case timerFired
    /// The reload the engine started answered; `requestsSent` is what the transport counted
    /// (redirect hops included; 1 for a plain request, 0 when it does not count).
    case reloadFinished(TimelineResult, requestsSent: Int)
    /// `headlines refresh` / the bus's Reload / a middle click.
    case refreshAsked(reason: String)
    /// The config file was read again; `reason` says why for the log ("SIGHUP", "config file saved").
    case configurationChanged(HostConfiguration, reason: String)
    /// GNetworkMonitor says the network is available again.
    case networkReturned
    /// The cache file changed and this host did not write it (`headlines fetch`).
    case cacheChangedByAnotherProcess(CachedHeadlines)
    /// muted.json changed (a notification's Mute button, `headlines mute` / `unmute`).
    case mutedChanged(MutedSources)
    /// offset.json changed (`headlines next` / `prev`).
    case offsetChanged(Int)
}

/// What the driver must do, in order.
public enum HostAction: Sendable {
    /// Write the ledger (once per event, after the event's other state actions) through the
    /// host's one `LedgerStore`: its `unsaved` says what the store last got from the engine lacks.
    case saveLedger(RefreshLedger)
    /// Run the provider's reload (`TimelineProvider.timeline`) and answer `reloadFinished`.
    /// It comes after the event's `saveLedger`, whose ledger already counts this reload.
    /// `allFeeds`: someone asked for it, so every feed is fetched, whatever its caching hints
    /// say; else only the feeds that are due.
    case startReload(consecutiveFailures: Int, allFeeds: Bool)
    /// The timeline and schedule changed: the driver keeps them for `GetStatus`.
    case publish(PublishedTimeline)
    /// The entry on display changed (verbose hosts and the demo print it).
    case showEntry(TimelineEntry, PublishedTimeline)
    /// Hand these freshly fetched headlines to notifications (the seen set picks the new ones).
    case notify([Headline], TimelineResult)
    /// New headlines arrived: set offset.json back to 0, so bars show the newest.
    case resetBarOffset
    /// Cancel any armed timer and arm one that fires after `seconds` (for `at`, wall clock).
    case armTimer(at: Date, seconds: TimeInterval)
    case log(Level, String)

    public enum Level: Sendable, Equatable { case info, warning, error }

    /// True for `.notify`, which a host performs after the rest of the same batch.
    public var isNotify: Bool {
        if case .notify = self { return true }
        return false
    }
}

extension Config {
    /// The digest of what decides which headlines come back (never the API key itself).
    public var sourceIdentity: String {
        var parts = [provider.displayName, feeds.map(\.absoluteString).joined(separator: " "),
                     jsonURL?.absoluteString ?? "", baseURL?.absoluteString ?? "", country, language, category, query]
        // Only when set, so every config without it keeps the digest its ledger already holds. The
        // file's contents are not here: the host never reads it (a reload re-reads it anyway).
        if let feedsFrom { parts.append("feeds-from " + feedsFrom.written) }
        if !subreddits.isEmpty || !sort.isEmpty || !section.isEmpty {
            parts.append("r/" + subreddits.joined(separator: "+") + " " + sort + " " + section)
        }
        // A URL may carry a key in its query, so only a digest is kept on disk (unpadded, as ever).
        return String(FNV1a.hash(parts.joined(separator: "\u{1F}")), radix: 16)
    }
}
