import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore

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
                              reloader: { HostRunner.childReloader(args: args, environment: environment, loaded: $0) }) { host, loaded in
            guard loaded.widget == context.paths.widget else { return } // the one this bar shows
            BarOutput.install { MainLoop.quit() }
            var lastLine = ""
            let follower = TimelineFollower(paths: context.paths) { [weak host] state in
                var state = state
                state.keywords = host?.setup.alerts.keywords ?? KeywordMatcher(context.config.keywords)
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

extension BarCommand {
    /// The config did not load. For a bar command the bar must still show something: returns
    /// the exit status after showing the config-error line (one-shot i3blocks: printed, exit 0;
    /// waybar and i3blocks --persist: `headlines-bar`, whose host publishes the line, or here:
    /// printed, then waiting for a config that loads and starting again). Nil for other commands.
    static func configFailed(_ error: ConfigError, args: Arguments, argv: [String], environment: [String: String]) -> Int32? {
        let pango = args.pango || environment["markup"] == "pango"
        let json = args.json || environment["format"] == "json"
        let line: (ConfigError) -> String
        switch args.command {
        case "i3blocks" where !args.persist:
            Output.error("headlines: \(error.message)")
            Output.print(I3blocksRenderer.oneShot(BarState(configError: error.message), maxLength: Config().maxLength, pango: pango),
                         terminator: "")
            return 0
        case "i3blocks":
            line = { error in
                let state = BarState(configError: error.message)
                return json ? I3blocksRenderer.persistJSONLine(state, maxLength: Config().maxLength, pango: pango)
                    : I3blocksRenderer.persistLine(state, maxLength: Config().maxLength, pango: pango)
            }
        case "waybar":
            line = { WaybarRenderer.render(BarState(configError: $0.message), now: Date(), maxLength: Config().maxLength) }
        default:
            return nil
        }
        // A widget the file has no group for: no host will publish its lines, so the sentence is
        // shown from here (headlines-bar would wait for a host that never serves it).
        if environment["HEADLINES_NO_BAR_EXEC"] == nil && !error.namesNoWidget {
            let bar = Binaries.path(of: "headlines-bar")
            if bar.hasPrefix("/") { Exec.replace(with: [bar] + argv, environment: environment) }
        }
        // In-process (no headlines-bar): show the error, wait for a config that loads, then run
        // this same command again from the start.
        Output.error("headlines: \(error.message)")
        MainLoop.run {
            BarOutput.install { MainLoop.quit() }
            let wait = ConfigWait(args: args, environment: environment, error: error,
                                  onError: { if !BarOutput.write(line($0)) { MainLoop.quit() } },
                                  onLoaded: { _ in
                                      Exec.replace(with: [ProcessLauncher.selfPath] + argv, environment: environment)
                                      MainLoop.quit()
                                  })
            HostRegistry.keep(wait)
            wait.start()
        }
        return 0
    }
}
