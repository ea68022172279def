import Foundation
import HeadlinesCore
import HeadlinesDesktop

/// The headlines a bar shows right now, the same for every process: the running host's published
/// timeline when there is one, else the cache (minus muted sources).
struct ShownHeadlines {
    var headlines: [Headline]
    /// Index of the one on display now.
    var current: Int

    static func load(_ context: AppContext, now: Date = Date()) -> ShownHeadlines {
        let warn: (String) -> Void = { Output.error("headlines: warning: \($0)") }
        if HostLock.holder(path: context.paths.hostLockFile) != nil,
           let published = PublishedTimelineStore(path: context.paths.publishedTimelineFile).load(),
           let entry = published.timeline.entry(at: now), !entry.content.headlines.isEmpty {
            let n = entry.content.headlines.count
            let index = ((entry.content.index + published.rotationOffset) % n + n) % n
            return ShownHeadlines(headlines: entry.content.headlines, current: index)
        }
        let muted = StateFile<MutedSources>(path: context.paths.mutedFile, what: "muted-sources").load(now: now, warn: warn) ?? MutedSources()
        return ShownHeadlines(headlines: muted.filter(context.cache.load(now: now, warn: warn)?.headlines ?? []), current: 0)
    }
}
