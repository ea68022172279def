// `headlines`: parse the arguments, run the command, exit with its status. Everything else lives in
// HeadlinesCore (logic) and HeadlinesDesktop (GLib, GIO, libnotify).
import Foundation

let status = await CommandLineTool.run(arguments: Array(CommandLine.arguments.dropFirst()),
                                       environment: ProcessInfo.processInfo.environment)
exit(status)
