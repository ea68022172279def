import Foundation
import HeadlinesCore
import HeadlinesDesktop

/// `headlines open N`: the N-th cached headline in the default browser.
enum OpenCommand {
    static func run(_ context: AppContext, positional: [String]) -> Int32 {
        let cached = context.cache.load(now: Date(), warn: { Output.error("headlines: warning: \($0)") })
        let headlines = cached?.headlines ?? []
        guard let arg = positional.first, let n = Int(arg) else {
            Output.error("headlines: open needs the number of a headline from `headlines list`, such as `headlines open 1`.")
            return 2
        }
        guard (1...max(headlines.count, 1)).contains(n), n <= headlines.count else {
            Output.error("headlines: there is no headline \(n); `headlines list` shows \(headlines.count).")
            return 2
        }
        do {
            try URLLauncher.open(headlines[n - 1].url)
            return 0
        } catch {
            Output.error("headlines: \(error.description)")
            return 1
        }
    }
}
