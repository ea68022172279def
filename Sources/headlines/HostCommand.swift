import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesDesktop
import HeadlinesGLib

/// `headlines run`: becomes `headlines-host` (the same process, same options, same environment with the
/// keys, which only its reload child gets), the small resident host that links neither libcurl
/// nor libxml2. Its reloads run in `headlines-reload` children.
enum HostCommand {
    static func run(_ context: AppContext) -> Int32 {
        var options = context.arguments.passThrough
        if context.arguments.verbose { options.append("--verbose") }
        if context.arguments.fromBar { options.append("--from-bar") }
        return Sibling.replace(with: "headlines-host", options, environment: context.environment)
    }
}

/// `headlines waybar`, `headlines i3blocks`, `headlines polybar` ...: the bar program, with the
/// same arguments. It renders nothing itself: it copies the host's ready-made lines.
enum BarProgram {
    static func replace(_ argv: [String], environment: [String: String]) -> Int32 {
        Sibling.replace(with: "headlines-bar", argv, environment: ProcessLauncher.userEnvironment(environment))
    }
}

/// Another program of the package in place of this one; returns only when it could not start.
enum Sibling {
    static func replace(with name: String, _ arguments: [String], environment: [String: String]) -> Int32 {
        let program = Binaries.path(of: name)
        ProcessLauncher.replace(with: [program] + arguments, environment: environment)
        let folder = name == "headlines-bar" ? "PREFIX/bin" : "PREFIX/libexec/headlines"
        Output.error("headlines: cannot start \(program) (\(String(cString: strerror(errno)))); reinstall headlines: it ships in \(folder).")
        return 1
    }
}
