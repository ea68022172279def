// `headlines`: parse the arguments, run the command, exit with its status. Everything else lives in
// HeadlinesCore (logic) and HeadlinesDesktop (GLib, GIO, libnotify).
import Foundation

// Synchronous on purpose: `headlines run` hands the real main thread to g_main_loop_run, and
// async commands wait for their work with `blockingAwait`.
let status = CommandLineTool.run(arguments: Array(CommandLine.arguments.dropFirst()),
                                       environment: ProcessInfo.processInfo.environment)
exit(status)
