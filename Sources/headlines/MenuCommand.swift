import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HeadlinesCore
import HeadlinesSources
import HeadlinesDesktop

/// `headlines menu`: pick a headline in rofi/wofi/fuzzel/bemenu/dmenu and open it.
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
            guard let index = try LauncherMenu.choose(lines, argv: argv) else { return 0 }
            try URLLauncher.open(shown.headlines[index].url)
            return 0
        } catch let error as LauncherMenu.MenuError {
            Output.error("headlines: \(error.description)")
            return 1
        } catch {
            Output.error("headlines: \(error)")
            return 1
        }
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
        do { try file.store(muted) } catch {
            Output.error("headlines: could not save the muted sources (\(error)): check \(context.paths.stateDir).")
            return 1
        }
        Output.print(command == "mute" ? "Muted \(source): it no longer appears in notifications or bars." : "Unmuted \(source).")
        // A running host watches muted.json and applies the change at once: no signal needed.
        return 0
    }
}
