// `headlines-host`: the resident widget host (`headlines run` execs it; a bar starts it with
// `--from-bar`). It links the core and the desktop module only: no libcurl, no libxml2, no
// thread pool. Each reload runs in a short-lived `headlines fetch --for-host` child.
import CGLib
import CHostMemory
import FoundationEssentials
import HeadlinesGLib
import HeadlinesCore
import HeadlinesDesktop
#if canImport(Glibc)
import Glibc
#endif

// First of all, before the host touches most of its code: from here on the kernel maps only the
// pages of code the host runs, not their 64 KiB neighbourhoods (fault_around.c says why and how).
let pageByPage = chm_map_only_touched_pages()

// Whatever descriptors this process inherited (a launcher's pipes) stay open here but are closed
// on exec: the fetch child is started with posix_spawn, which closes nothing (ChildReloader), and
// neither it nor a browser this host opens should hold them.
headlines_glib_cloexec_inherited()
let environment = ProcessEnvironment.current()
// The keys stay in `environment`, for the fetch child's environment only: nothing else the host
// starts (a browser opening an article, the launcher menu) inherits them.
for variable in ["APITUBE_API_KEY", "NEWSAPI_API_KEY"] { unsetenv(variable) }
exit(HostMain.run(argv: Array(CommandLine.arguments.dropFirst()), environment: environment, pageByPage: pageByPage))
