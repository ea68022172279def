import FoundationEssentials
import HeadlinesCore
import HeadlinesDesktop
#if canImport(Glibc)
import Glibc
#endif

/// Parses the host's options (the global ones of `headlines run`, plus `--from-bar`) and runs it.
enum HostMain {
    static func run(argv: [String], environment: [String: String]) -> Int32 {
        let args: Arguments
        do { args = try Arguments.parse(["run"] + argv) } catch {
            HostLog.error("\(error.message); see headlines --help.")
            return 2
        }
        // `headlines-host --version` / `--help` answer and exit: they must never start a host.
        if args.version || args.help {
            let text = args.version ? "headlines-host \(HeadlinesVersion.string)"
                : "headlines-host: the resident widget host; start it with `headlines run` (see headlines --help)."
            DescriptorOutput.writeAll(Array((text + "\n").utf8), to: 1)
            return 0
        }
        return HostRunner.run(args: args, environment: environment,
                              reloader: { HostRunner.childReloader(args: args, environment: environment, loaded: $0) },
                              extra: { host, _ in
            guard args.verbose else { return }
            host.onEntry = { entry, _ in
                let n = entry.content.headlines.count
                HostLog.info("entry \(n == 0 ? 0 : entry.content.index % n + 1)/\(n) [\(entry.content.freshness.rawValue)]: \(entry.content.current.map { TerminalText.safe($0.title) } ?? "nothing to show")")
            }
        })
    }
}
