// `headlines-fetch`: the half of `headlines` that links libcurl and libxml2. The host runs it for
// each reload (`fetch --for-host`: one refresh, its `ReloadReport` on stdout, then the cache and
// status written), and `headlines` hands it the commands that fetch or parse (NetworkCommands).
// Every byte a server sends is parsed here, in a process that lives for one command, so a parser
// crash or a memory spike never reaches the host.
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
