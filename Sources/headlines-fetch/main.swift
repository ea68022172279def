// `headlines-fetch`: the host's reload child, and nothing else. One refresh, its `ReloadReport` on
// stdout, then the cache and status written. It links libcurl, OpenSSL, libxml2 and GLib from
// their static archives (link/ says how), so that starting it maps one program and libc instead
// of some fifty libraries: that start-up was most of a reload's latency (issue 14).
import FoundationEssentials
import HeadlinesGLib
#if canImport(Glibc)
import Glibc
#endif

// Only stdin, stdout and stderr: the host starts this process without closing its own
// descriptors (posix_spawn, ChildReloader says why), so any it left inheritable end here.
closefrom(3)
let environment = ProcessEnvironment.current()
// The keys are read from `environment` from here on; no program this one starts inherits them
// (the image step gets them back only through `environment`, as it gets them today).
for variable in ["APITUBE_API_KEY", "NEWSAPI_API_KEY"] { unsetenv(variable) }
exit(ReloadChild.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment))
