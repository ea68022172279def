import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesDesktop
import HeadlinesGLib

/// `headlines start`: makes sure a host runs, and returns at once. The session bus starts it by
/// activation where the service file is installed (under the systemd unit when there is one);
/// with no bus, or no service file (a build tree), it starts `headlines-host` in its own session.
/// What a bar runs when it finds no host. It needs no config that loads: the host it starts
/// shows a broken one in the bars and waits for a fix.
enum StartCommand {
    static func run(args: Arguments, environment: [String: String]) -> Int32 {
        switch BusClient.startHost() {
        case .values: return 0
        case let .failed(message):
            Output.error("headlines: the session bus could not start the host: \(TerminalText.safe(message)); see `journalctl --user -u headlines`.")
            return 1
        case .noBus, .noHost:
            let lock = XDGPaths(environment: environment).hostLockFile
            if case .host = HostClient(lockPath: lock, subcommand: { (try? Arguments.parse($0))?.command }).holder() { return 0 }
        }
        return startWithoutActivation(args: args, environment: environment) ? 0 : 1
    }

    /// `headlines-host` in its own session, with this command's options and environment.
    static func startWithoutActivation(args: Arguments, environment: [String: String]) -> Bool {
        let host = Binaries.path(of: "headlines-host")
        guard ProcessLauncher.spawnDetached([host, "--from-bar"] + args.passThrough, environment: environment) else {
            Output.error("headlines: cannot start \(host); reinstall headlines: it ships in PREFIX/libexec/headlines.")
            return false
        }
        return true
    }
}
