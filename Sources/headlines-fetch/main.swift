// `headlines-fetch`: the half of `headlines` that links libcurl and libxml2: `headlines` hands it
// the commands that fetch or parse (NetworkCommands), and those that need a sync service's
// password. Each lives for one command. The host's reloads run in `headlines-reload`.
import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesGLib
#if canImport(Glibc)
import Glibc
#endif

let environment = ProcessEnvironment.current()
// The keys stay in `environment`, for the providers; nothing this process starts inherits them.
ProcessEnvironment.withholdKeys()
exit(Output.exitStatus(NetworkCommandLine.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment)))
