import BarFormats
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HeadlinesCommandLine
import HeadlinesCore

import HeadlinesDesktop

/// `headlines open [N]`: the N-th headline of `list` in the default browser, or with no N the one
/// a bar shows right now (what a bar's on-click runs); `--comments` opens its discussion page.
/// `open --id KEY` opens the headline a bar's click names (every format's click carries the key
/// of the headline it shows); `open --from-lemonbar` reads lemonbar's click lines.
enum OpenCommand {
    static func run(_ context: AppContext, positional: [String], comments: Bool = false, id: String? = nil,
                    fromLemonbar: Bool = false) -> Int32 {
        if fromLemonbar { return readLemonbar(context) }
        if let id { return open(id: id, context) }
        if comments { return openComments(context, positional: positional) }
        let headline: Headline
        if let arg = positional.first {
            let headlines = context.cache.load(now: Date(), warn: { Output.error("headlines: warning: \($0)") })?.headlines ?? []
            guard let n = Int(arg) else {
                Output.error("headlines: open takes the number of a headline from `headlines list`, such as `headlines open 1`, or nothing for the one on the bar.")
                return 2
            }
            guard n >= 1, n <= headlines.count else {
                Output.error("headlines: there is no headline \(n); `headlines list` shows \(headlines.count).")
                return 2
            }
            headline = headlines[n - 1]
        } else {
            // The one on display is the running host's to open; with none, the cache's.
            switch BusClient.call("Open", [.string(context.arguments.widget ?? "")], start: false) {
            case .values: return 0
            case let .failed(message):
                Output.error("headlines: \(TerminalText.safe(message)).")
                return 1
            case .noBus, .noHost: break
            }
            guard let current = ShownHeadlines.state(context).current else {
                Output.error("headlines: no headline is on display yet: run `headlines fetch` or start `headlines run`.")
                return 1
            }
            headline = current
        }
        return launch(headline)
    }

    /// The headline whose key (or id) is `id`, from what the host published and the cache.
    static func open(id: String, _ context: AppContext) -> Int32 {
        guard let headline = find(id: id, context) else {
            Output.error("headlines: no headline has the id \(TerminalText.safe(String(id.prefix(80)))) any more (the list was refreshed); see `headlines list` and open one by its number.")
            return 1
        }
        return launch(headline)
    }

    static func find(id: String, _ context: AppContext) -> Headline? {
        let now = Date()
        var candidates: [Headline] = []
        if let published = PublishedTimelineStore(path: context.paths.publishedTimelineFile).load() {
            candidates += published.timeline.entries.flatMap(\.content.headlines)
        }
        candidates += context.cache.load(now: now, warn: { Output.error("headlines: warning: \($0)") })?.headlines ?? []
        return candidates.first { HeadlineKey.of(id: $0.id) == id || $0.id == id }
    }

    static func launch(_ headline: Headline) -> Int32 {
        do {
            try URLLauncher.open(headline.url)
            return 0
        } catch {
            Output.clickFailed(error.description)
            return 1
        }
    }

    /// `open --comments [N]`: the discussion page (Hacker News, Reddit, Lobsters) of the N-th
    /// cached headline, or of the one the bars show (the host's published timeline, turned).
    static func openComments(_ context: AppContext, positional: [String]) -> Int32 {
        let cached = context.cache.load(now: Date(), warn: { Output.error("headlines: warning: \($0)") })?.headlines ?? []
        let headline: Headline?
        if let arg = positional.first {
            guard let n = Int(arg), n >= 1, n <= cached.count else {
                Output.error("headlines: open --comments takes the number of a headline from `headlines list` (it shows \(cached.count)), or nothing for the one on the bar.")
                return 2
            }
            headline = cached[n - 1]
        } else {
            headline = ShownHeadlines.state(context).current
        }
        guard let headline else {
            Output.error("headlines: no headline is on display yet: run `headlines fetch` or start `headlines run`.")
            return 1
        }
        guard let discussion = headline.commentsURL else {
            Output.error("headlines: this headline has no discussion page; Hacker News, Reddit and Lobsters headlines have one.")
            return 1
        }
        do {
            try URLLauncher.open(discussion)
            return 0
        } catch {
            Output.clickFailed(error.description)
            return 1
        }
    }

    /// lemonbar prints a clicked area's command on its stdout; piped here, each line must be
    /// exactly `open KEY` (what `headlines-bar lemonbar` writes): anything else is ignored with
    /// one sentence, so text that reached lemonbar can never run a command.
    static func readLemonbar(_ context: AppContext) -> Int32 {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return 0 }
            for byte in buffer[0..<n] {
                guard byte == 0x0A else {
                    if pending.count <= 64 { pending.append(byte) }
                    continue
                }
                let line = String(decoding: pending, as: UTF8.self)
                pending.removeAll(keepingCapacity: true)
                if line.hasPrefix("open "), HeadlineKey.isKey(String(line.dropFirst(5))) {
                    _ = open(id: String(line.dropFirst(5)), context)
                } else if !line.isEmpty {
                    Output.error("headlines: ignored a line from lemonbar that is not `open KEY`; pipe only `headlines-bar lemonbar`'s bar here.")
                }
            }
        }
    }
}
