import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore

import HeadlinesDesktop

/// What a bar shows right now, the same for every process: the running host's published timeline
/// turned by the shared `next`/`prev` offset, else the cache minus muted sources
/// and mute-words; keyword matches marked.
enum ShownHeadlines {
    static func state(_ context: AppContext, now: Date = Date()) -> BarState {
        let warn: (String) -> Void = { Output.error("headlines: warning: \($0)") }
        let paths = context.paths
        let hostRuns = context.host.hostPID() != nil
        let published = hostRuns ? PublishedTimelineStore(path: paths.publishedTimelineFile).load() : nil
        let offset = JSONStateFile(rotationOffsetAt: paths.rotationOffsetFile).load(now: now, warn: { _ in })?.offset ?? 0
        let alerts = KeywordAlerts(context.config)
        let muted = (StateFile<MutedSources>(path: paths.mutedFile, what: "muted-sources").load(now: now, warn: warn) ?? MutedSources())
            .with(words: alerts.muteWords)
        return BarStateSource.state(published: published,
                                    cache: published == nil ? context.cache.load(now: now, warn: warn) : nil,
                                    muted: muted, keywords: alerts.keywords, offset: offset,
                                    lastFailure: published == nil ? context.statusStore.load(now: now, warn: warn).lastFailure : nil,
                                    now: now)
    }

    /// `headlines next` / `prev` [N]: turns every bar copy by `step`: the running host does it
    /// (Next/Previous on the bus); with none, the offset file the next host starts from.
    static func rotate(_ context: AppContext, by step: Int) -> Int32 {
        let widget = BusClient.Value.string(context.arguments.widget ?? "")
        switch BusClient.call(step >= 0 ? "Next" : "Previous", [widget, .int(abs(step))], start: false) {
        case .values: return 0
        case let .failed(message):
            Output.error("headlines: the host could not turn the bar: \(TerminalText.safe(message)).")
            return 1
        case .noBus, .noHost: break
        }
        do { try JSONStateFile(rotationOffsetAt: context.paths.rotationOffsetFile).turn(by: step, now: Date()) } catch {
            Output.error("headlines: could not turn the bar (\(error)): check \(context.paths.runtimeHeadlinesDir).")
            return 1
        }
        return 0
    }
}
