import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesDesktop

/// `headlines run`: becomes `headlines-host` (execve, same options, same environment with the
/// keys the CLI removed from its own), the small resident host that links neither libcurl nor
/// libxml2. Its reloads run in `headlines-fetch` children.
enum HostCommand {
    static func run(_ context: AppContext, argv: [String]) -> Int32 {
        let host = Binaries.path(of: "headlines-host")
        var options = context.arguments.passThrough
        if context.arguments.verbose { options.append("--verbose") }
        Exec.replace(with: [host] + options, environment: context.environment)
        Output.error("headlines: cannot start \(host) (\(String(cString: strerror(errno)))); reinstall headlines: it ships in PREFIX/libexec/headlines.")
        return 1
    }
}

/// `headlines waybar` and `headlines i3blocks` hand over to `headlines-bar`, the static bar
/// program that prints the host's ready-made lines (a few hundred kB per copy instead of a
/// full CLI). HEADLINES_NO_BAR_EXEC=1 keeps them here (headlines-bar sets it when it hands a
/// click or an unusual option back to us). A widget's runtime folder is made first: the config
/// names that widget (it loaded), and headlines-bar, which cannot read the config, hands a
/// `--widget` whose folder is missing to us to check.
enum BarBinary {
    static func execIfPossible(_ argv: [String], context: AppContext) {
        guard context.environment["HEADLINES_NO_BAR_EXEC"] == nil else { return }
        let bar = Binaries.path(of: "headlines-bar")
        guard bar.hasPrefix("/") else { return }
        // A folder that cannot be made (refused) is reported by the in-process bar, not looped on.
        if context.paths.widget != nil, (try? RuntimeFolder.ensurePrivate(context.paths.runtimeHeadlinesDir)) == nil { return }
        Exec.replace(with: [bar] + argv, environment: context.environment)
    }
}
