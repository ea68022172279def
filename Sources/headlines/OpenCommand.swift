import FoundationEssentials
import HeadlinesCore
import HeadlinesSources
import HeadlinesDesktop

/// `headlines open [N]`: the N-th headline of `list` in the default browser, or with no N the one
/// a bar shows right now (what a bar's on-click runs).
enum OpenCommand {
    static func run(_ context: AppContext, positional: [String]) -> Int32 {
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
        do {
            try URLLauncher.open(headline.url)
            return 0
        } catch {
            Output.error("headlines: \(error.description)")
            return 1
        }
    }
}
