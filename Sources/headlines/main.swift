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
// The keys are read from `environment` from here on. Out of the process environment they go, so no
// program we start (a browser opening an article, the launcher menu) ever inherits them.
for variable in ["APITUBE_API_KEY", "NEWSAPI_API_KEY"] { unsetenv(variable) }
let status = CommandLineTool.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment)
exit(status)
