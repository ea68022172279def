import FoundationEssentials
import HeadlinesCore
import HeadlinesDesktop
import HeadlinesGLib

/// `headlines start`: makes sure a host runs, and returns at once. The session bus starts it by
/// activation where the service file is installed (under the systemd unit when there is one);
/// with no bus, or no service file (a build tree), it starts `headlines-host` in its own session.
/// What a bar runs when it finds no host.
enum StartCommand {
    static func run(_ context: AppContext) -> Int32 {
        switch BusClient.startHost() {
        case .values: return 0
        case let .failed(message):
            Output.error("headlines: the session bus could not start the host: \(TerminalText.safe(message)); see `journalctl --user -u headlines`.")
            return 1
        case .noBus, .noHost:
            if case .host = context.host.holder() { return 0 }
        }
        let host = Binaries.path(of: "headlines-host")
        guard ProcessLauncher.spawnDetached([host, "--from-bar"] + context.arguments.passThrough) else {
            Output.error("headlines: cannot start \(host); reinstall headlines: it ships in PREFIX/libexec/headlines.")
            return 1
        }
        return 0
    }
}
