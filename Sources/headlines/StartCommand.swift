import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesDesktop

/// `headlines start`: makes sure a host runs, and returns at once. The session bus starts it by
/// activation (under the systemd unit when there is one); what a bar runs when it finds no host.
/// It needs no config that loads: the host shows a broken one in the bars and waits for a fix.
enum StartCommand {
    static func run(args: Arguments, environment: [String: String]) -> Int32 {
        let reply = BusClient.startHost()
        if case .values = reply { return 0 }
        Output.error("headlines: cannot start the host: \(BusClient.unreachable(reply) ?? "").")
        return 1
    }

    /// `headlines next` / `prev` [N]: the host turns every bar copy of the widget.
    static func turn(_ context: AppContext, command: String) -> Int32 {
        guard let count = context.arguments.positional.first.map({ Int($0) }) ?? 1, count >= 1 else {
            Output.error("headlines: \(command) takes how many headlines to move, such as `headlines \(command) 3`, or nothing for one.")
            return 2
        }
        let widget = BusClient.Value.string(context.arguments.widget ?? "")
        // Any count turns the bar (it wraps); the bus carries 32 bits.
        return HostCall.ask(command == "next" ? "Next" : "Previous", [widget, .int(min(count, Int(Int32.max)))],
                            to: "turn the bar") == nil ? 1 : 0
    }
}

/// A method of the running host, which the bus starts when none runs: its reply, or nil after
/// one sentence on stderr saying why it could not be reached and what to do.
enum HostCall {
    static func ask(_ method: String, _ arguments: [BusClient.Value], to what: String) -> [BusClient.Value]? {
        let reply = BusClient.call(method, arguments)
        switch reply {
        case let .values(values): return values
        // The host's own sentence says what went wrong.
        case let .failed(message): Output.error("headlines: \(TerminalText.safe(message)).")
        case .noBus, .noHost: Output.error("headlines: could not \(what): \(BusClient.unreachable(reply) ?? "").")
        }
        return nil
    }
}
