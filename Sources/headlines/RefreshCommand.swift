import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesDesktop

/// `headlines refresh`: WidgetCenter.reloadTimelines for this world. Asks the host to reload now
/// (the bus starts it by activation when none runs) and waits for its `ReloadFinished`; says
/// until when the budget defers it. A host that this call itself started is already reloading
/// when it answers, if its cache was due: that reload is the one waited for, so a refresh costs
/// one request whether a host ran or not.
enum RefreshCommand {
    static func run(_ context: AppContext) -> Int32 {
        let asked = context.arguments.widget ?? ""
        var deferred: [String] = []
        var pid: Int?
        let wait = context.config.timeout + HostRunner.childDeadlineMargin + 5
        let (reply, results) = BusClient.awaitReloads(seconds: wait) { connection in
            // "" is every widget: each one reloads and says when it is done.
            var names = [asked]
            if asked.isEmpty {
                let listed = BusClient.call(on: connection, "ListWidgets")
                guard case let .values(values) = listed else { return (listed, []) }
                names = values.first?.items.map(\.text) ?? [""]
            }
            var waitFor: Set<String> = []
            for name in names {
                let status = BusClient.call(on: connection, "GetStatus", [.string(name)])
                guard case let .values(values) = status else { return (status, []) }
                let facts = BusClient.dictionary(values.first)
                pid = facts["pid"]?.number
                if facts["reloading"]?.flag == true { waitFor.insert(name); continue }
                let answer = BusClient.call(on: connection, "Reload", [.string(name)])
                guard case let .values(words) = answer else { return (answer, []) }
                if words.first?.text == "deferred" {
                    deferred.append((name.isEmpty ? "" : "[\(name)] ") + (words.dropFirst().first?.text ?? "later"))
                } else {
                    waitFor.insert(name)
                }
            }
            return (.values([]), waitFor)
        }
        guard case .values = reply else {
            Output.error("headlines: could not refresh: \(BusClient.unreachable(reply) ?? "").")
            return 1
        }
        for until in deferred { Output.print("Not reloading: the next reload can happen at \(TerminalText.safe(until)).") }
        var failed = false
        for (name, result) in results.sorted(by: { $0.key < $1.key }) {
            let label = name.isEmpty || results.count == 1 ? "" : "[\(name)] "
            // A failure's result is a whole sentence: its own period ends this line.
            Output.print("\(label)Reloaded by the host\(pid.map { " (pid \($0))" } ?? ""): \(NewsError.clause(TerminalText.safe(result))).")
            failed = failed || result.hasPrefix("failed")
        }
        if results.isEmpty && deferred.isEmpty {
            Output.print("Asked the host to reload; it has not finished yet: see `headlines status`.")
        }
        return failed ? 1 : 0
    }
}
