// `headlines-reload`: the host's reload child (installed in libexec). One reload: the source
// fetched, its `ReloadReport` on stdout, then the cache and status written (ReloadChild). Every
// byte a server sends is parsed here, sandboxed (ChildSandbox), in a process that lives for one
// reload, so a parser crash or a memory spike never reaches the host. It links what a reload
// needs and no more: no D-Bus, no libnotify; gdk-pixbuf and libsecret are loaded when a reload
// stores an image or signs in.
import FoundationEssentials
import HeadlinesCore
import HeadlinesGLib
#if canImport(Glibc)
import Glibc
#endif

let environment = ProcessEnvironment.current()
// The keys stay in `environment`, for the providers; nothing this process starts inherits them.
ProcessEnvironment.withholdKeys()
// The reload is the `fetch` command done for the host: its options are fetch's.
let args: Arguments
do { args = try Arguments.parse(["fetch"] + Array(CommandLine.arguments.dropFirst())) } catch {
    HostLog.error("headlines-reload: \(error.message); it is the host's reload child: run `headlines refresh` instead.")
    exit(2)
}
// Like every installed program, it names its version (packagers' smoke tests run it), and asked
// for help it says what it is rather than reloading.
if args.version {
    print("headlines-reload \(HeadlinesVersion.string)")
    exit(0)
}
if args.help {
    print("headlines-reload [--config FILE] [--widget NAME]: the host's reload child, one reload per run; run `headlines refresh` instead.")
    exit(0)
}
exit(ReloadChild.run(args, environment: environment))
