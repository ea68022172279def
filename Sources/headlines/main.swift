// `headlines`: parse the arguments, run the command, exit with its status. Everything else lives in
// HeadlinesCore (logic) and HeadlinesDesktop (GLib, GIO, libnotify).
import FoundationEssentials
import HeadlinesGLib
#if canImport(Glibc)
import Glibc
#endif

// Synchronous on purpose: `headlines run` hands the real main thread to g_main_loop_run, and
// async commands wait for their work with `blockingAwait`.
let environment = ProcessEnvironment.current()
// The keys stay in `environment`, which only the reload child's environment is built from.
ProcessEnvironment.withholdKeys()
let status = CommandLineTool.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment)
exit(status)
