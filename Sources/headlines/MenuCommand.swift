import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HeadlinesCommandLine
import HeadlinesCore

import HeadlinesDesktop

/// `headlines menu`: pick a headline in a dmenu-style launcher (`KnownLaunchers`) and open it.
enum MenuCommand {
    static func run(_ context: AppContext) -> Int32 {
        let shown = ShownHeadlines.state(context)
        guard !shown.headlines.isEmpty else {
            Output.error("headlines: no headlines yet: run `headlines fetch` or start `headlines run`.")
            return 1
        }
        let now = Date()
        let lines = shown.headlines.map {
            Markup.neutralise($0.title) + " — " + Markup.neutralise($0.source) + " · " + RelativeAge.describe($0.publishedAt, now: now)
        }
        do {
            let argv = try LauncherMenu.argv(configured: context.config.launcher, environment: context.environment)
            if let missing = LauncherMenu.missingProgram(argv) { throw LauncherMenu.MenuError.notOnPath(missing) }
            guard let index = try LauncherMenu.choose(lines, argv: argv) else { return 0 }
            try URLLauncher.open(shown.headlines[index].url)
            return 0
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
        let changed = command == "mute" ? muted.mute(source) : muted.unmute(source)
        guard changed else {
            Output.print(command == "mute" ? "\(source) was already muted." : "\(source) was not muted.")
            return 0
        }
        // A running host saves and applies it itself; with none, the next one reads the file.
        switch BusClient.call(command == "mute" ? "Mute" : "Unmute", [.string(source)], start: false) {
        case .values: break
        case let .failed(message):
            Output.error("headlines: the host refused to \(command) \(TerminalText.safe(source)): \(TerminalText.safe(message)).")
            return 1
        case .noBus, .noHost:
            do { try file.store(muted) } catch {
                Output.error("headlines: could not save the muted sources (\(error)): check \(context.paths.stateDir).")
                return 1
            }
        }
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
