import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore

/// `headlines list [--json]`: the cache, newest first.
enum ListCommand {
    static func run(_ context: AppContext, json: Bool) -> Int32 {
        let now = Date()
        let warn: (String) -> Void = { Output.error("headlines: warning: \($0)") }
        let cached = context.cache.load(now: now, warn: warn)
        if json {
            // `[]`, not the encoder's empty pretty-printed array: a script's `jq` sees one token.
            let headlines = cached?.headlines ?? []
            Output.print(headlines.isEmpty ? "[]" : ListRenderer.json(headlines))
        } else {
            Output.print(ListRenderer.text(cached, status: context.statusStore.load(now: now, warn: warn), now: now))
        }
        return 0
    }
}
