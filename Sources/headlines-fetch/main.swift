// `headlines-fetch`: the host's reload child, and nothing else. One refresh, its `ReloadReport` on
// stdout, then the cache and status written. Every byte a server sends is parsed here, in a
// process that lives for one reload, so a parser crash or a memory spike never reaches the host.
import FoundationEssentials
import HeadlinesGLib
#if canImport(Glibc)
import Glibc
#endif

let environment = ProcessEnvironment.current()
// The keys are read from `environment` from here on; nothing this process starts inherits them.
for variable in ["APITUBE_API_KEY", "NEWSAPI_API_KEY"] { unsetenv(variable) }
exit(ReloadChild.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment))
