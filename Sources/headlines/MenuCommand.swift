import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HeadlinesCommandLine
import HeadlinesCore

import HeadlinesDesktop

/// `headlines menu`: pick one of the headlines the bar turns through in a dmenu-style launcher
/// (`KnownLaunchers`); the host opens it. The host is asked for them (the bus's ListHeadlines),
/// and started when none runs.
enum MenuCommand {
    static func run(_ context: AppContext) -> Int32 {
        do {
            // The launcher first: with none that can run, no host need be asked (or started).
            let argv = try LauncherMenu.argv(configured: context.config.launcher, environment: context.environment)
            if let missing = LauncherMenu.missingProgram(argv) { throw LauncherMenu.MenuError.notOnPath(missing) }
            let widget = BusClient.Value.string(context.arguments.widget ?? "")
            guard let reply = HostCall.ask("ListHeadlines", [widget], to: "list the headlines") else { return 1 }
            let rows = (reply.first?.items ?? []).map(\.items).filter { $0.count == 5 }
            guard !rows.isEmpty else {
                Output.error("headlines: no headlines yet: the host has not fetched any; see `headlines status`.")
                return 1
            }
            let now = Date()
            let lines = rows.map { row in
                Markup.neutralise(row[1].text) + " — " + Markup.neutralise(row[2].text) + " · "
                    + RelativeAge.describe(Date(timeIntervalSince1970: Double(row[4].number ?? 0)), now: now)
            }
            guard let index = try LauncherMenu.choose(lines, argv: argv, environment: context.environment) else { return 0 }
            return HostCall.ask("OpenHeadline", [widget, rows[index][0], .bool(false)], to: "open the headline") == nil ? 1 : 0
        } catch let error as LauncherMenu.MenuError {
            Output.clickFailed(error.description)
            return 1
        } catch {
            Output.clickFailed("\(error)")
            return 1
        }
    }
}

extension Output {
    /// A click that opened nothing: always on stderr; also as a notification when stderr is no
    /// terminal (a bar's click), where nobody would read it otherwise.
    static func clickFailed(_ sentence: String) {
        error("headlines: \(sentence)")
        if isatty(2) == 0 { ClickFailure.notify(sentence) }
    }
}

/// `headlines mute SOURCE`, `unmute SOURCE`, `muted`: the sources hidden from notifications and bars.
enum MuteCommand {
    static func run(_ context: AppContext, command: String, positional: [String]) -> Int32 {
        let now = Date()
        // Read here, written by the host alone.
        let file = StateFile<MutedSources>(path: context.paths.mutedFile, what: "muted-sources")
        var muted = file.load(now: now, warn: { Output.error("headlines: warning: \($0)") }) ?? MutedSources()
        if command == "muted" {
            Output.print(muted.sources.isEmpty ? "No sources are muted." : muted.sources.map(TerminalText.safe).joined(separator: "\n"))
            return 0
        }
        guard let source = positional.first, !source.isEmpty else {
            Output.error("headlines: \(command) needs a source as `headlines list` shows it, such as `headlines \(command) example.com`.")
            return 2
        }
        if command == "mute", let problem = muted.refusal(toMute: source) {
            Output.error("headlines: cannot mute \(TerminalText.safe(String(source.prefix(80)))): \(problem).")
            return 2
        }
        let changed = command == "mute" ? muted.mute(source) : muted.unmute(source)
        guard changed else {
            Output.print(command == "mute" ? "\(source) was already muted." : "\(source) was not muted.")
            return 0
        }
        // The host saves it and applies it at once in every widget; the bus starts one if needed.
        guard HostCall.ask(command == "mute" ? "Mute" : "Unmute", [.string(source)], to: command) != nil else { return 1 }
        if command == "mute", !knownSources(context, now: now).contains(where: { $0.equalsIgnoringCase(source) }) {
            // Accepted anyway: a source may simply have no headline in the cache yet (a feed not
            // read since, a quiet publisher). Saying so catches a typo without refusing the mute.
            let known = knownSources(context, now: now)
            let hint = known.isEmpty ? "" : " (the cached ones are \(known.prefix(8).map(TerminalText.safe).joined(separator: ", "))\(known.count > 8 ? ", ..." : ""))"
            Output.print("No cached headline is from \(TerminalText.safe(source))\(hint); muted anyway: it will not appear in notifications or bars.")
            return 0
        }
        Output.print(command == "mute" ? "Muted \(TerminalText.safe(source)): it no longer appears in notifications or bars." : "Unmuted \(TerminalText.safe(source)).")
        return 0
    }

    /// The sources of the cached headlines, as `list` shows them, each once.
    static func knownSources(_ context: AppContext, now: Date) -> [String] {
        var seen = Set<String>()
        return (context.cache.load(now: now, warn: { _ in })?.headlines ?? []).map(\.source).filter { seen.insert($0.lowercased()).inserted }
    }
}
