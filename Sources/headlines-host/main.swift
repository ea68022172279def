// `headlines-host`: the resident widget host (`headlines run` execs it; a bar starts it with
// `--from-bar`). It links the core and the desktop module only: no libcurl, no libxml2, no
// thread pool. Each reload runs in a short-lived `headlines-reload` child.
import FoundationEssentials
import CGLib
import HeadlinesGLib
import HeadlinesCore
import HeadlinesDesktop
#if canImport(Glibc)
import Glibc
#endif

// One malloc arena for every thread: the host's threads (GLib's D-Bus worker among them) would
// otherwise each get an arena of their own, holding dirty pages for a process that allocates little.
_ = headlines_glib_single_malloc_arena()

let environment = ProcessEnvironment.current()
// The keys stay in `environment`, which only the reload child's environment is built from.
ProcessEnvironment.withholdKeys()
exit(HostMain.run(argv: Array(CommandLine.arguments.dropFirst()), environment: environment))
