import FoundationEssentials
import HeadlinesCore
import HeadlinesSources
import HeadlinesDesktop

/// `headlines waybar` and `headlines i3blocks --persist`: continuous bar segments. They become
/// `headlines-bar` (`BarBinary`); this in-process form runs only when that is missing or
/// HEADLINES_NO_BAR_EXEC is set: each copy runs the host (reloading through fetch children) or
/// stands by to take over, and renders the host's published timeline, so N bars make one fetch
/// per reload and show the same entry at the same time.
enum BarCommand {
    enum Format { case waybar, i3blocksRaw, i3blocksJSON }

    static func run(_ context: AppContext, format: Format, pango: Bool, argv: [String]) -> Int32 {
        BarBinary.execIfPossible(argv, context: context)
        let maxLength = context.config.maxLength
        let render: @Sendable (BarState) -> String = { state in
            let now = Date()
            switch format {
            case .waybar: return WaybarRenderer.render(state, now: now, maxLength: maxLength)
            case .i3blocksRaw: return I3blocksRenderer.persistLine(state, maxLength: maxLength, pango: pango)
            case .i3blocksJSON: return I3blocksRenderer.persistJSONLine(state, maxLength: maxLength, pango: pango)
            }
        }
        let args = context.arguments, environment = context.environment
        return HostRunner.run(args: args, environment: environment,
                              reloader: { HostRunner.childReloader(args: args, environment: environment, config: $0.config) }) { host in
            BarOutput.install { MainLoop.quit() }
            var lastLine = ""
            let follower = TimelineFollower(paths: context.paths) { state in
                let line = render(state)
                guard line != lastLine else { return } // an unchanged line would only wake the bar
                lastLine = line
                if !BarOutput.write(line) { MainLoop.quit() }
            }
            HostRegistry.keep(follower)
            follower.start()
            if format == .i3blocksJSON {
                // i3blocks 1.5 with format=json writes click objects to our stdin.
                ClickReader.start { button in
                    I3blocksCommand.act(on: button, context: context)
                    follower.reread()
                }
            }
        }
    }
}
