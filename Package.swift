// swift-tools-version:6.0
// The module split, from the inside out:
//   FeedXML          the only importer of CLibXML2: feed bytes (any charset iconv knows) to an element
//                    tree, with libxml2's recovery, no network and no external entities.
//   HeadlinesCore    pure Swift on FoundationEssentials (no ICU, no Foundation, no libxml2): model,
//                    cache and state files, config model, timeline and its layout, the host engine,
//                    budget, bar rendering. Never imports C itself. Time is always passed in. It is
//                    all the resident host links, so it stays small.
//   HeadlinesSources where headlines come from: feed readers (on FeedXML), providers, the HTTP
//                    transport protocol, the timeline provider. Runs in `headlines` (the CLI and the
//                    host's short-lived fetch child), never in the resident host.
//   HeadlinesHTTP    the only importer of CCurl: the libcurl transport behind HTTPTransport.
//   CGLibNotify      system library: libnotify + GLib/GIO/GObject headers via its own .pc file.
//   HeadlinesGLib    the part of the desktop layer that needs GLib alone (CGLib): the config file
//                    (GKeyFile), the image store's names, the parent watch, where the programs are.
//   HeadlinesDesktop the only importer of CGLibNotify: URL launching, the GLib loop, libnotify,
//                    gdk-pixbuf. Thin wrappers that implement the core's protocols.
//   headlines        the CLI: parses arguments and wires core, sources, HTTP and desktop together;
//                    `fetch --for-host --report-images` is the reload child's image step.
//   headlines-fetch  the host's reload child: core, sources, HTTP and HeadlinesGLib, linked from
//                    static archives (libc aside) so that it starts quickly (CFetchStubs: see there).
//   headlines-bar    bar copies and one-shot blocks: fully static, no Foundation; prints the host's
//                    ready-made lines (CBarSys wraps inotify, pidfd, posix_spawn for it).
//   headlines-host   the resident widget host (`headlines run` execs it): core + desktop only, no
//                    libcurl, no libxml2; each reload runs in a `headlines-fetch` child.
//   CHostMemory      the host's one userfaultfd call, which turns off the kernel's fault-around.
import PackageDescription
import Foundation

// ThreadSanitizer's runtime cannot be linked into a static executable, so `make tsan` (which sets
// HEADLINES_TSAN=1 and builds in its own folder) links headlines-bar dynamically; every other
// build links it fully static (and routes libswiftCore's dlopen to CLinkWraps: see below).
let barLinkerSettings: [LinkerSetting] = ProcessInfo.processInfo.environment["HEADLINES_TSAN"] == nil
    ? [.unsafeFlags(["-static-executable", "-Xlinker", "--wrap=dlopen"])] : []

// The resident host is linked for a small working set (issue 14; `make bench` shows it). lld lays
// out first the functions the host runs (link/hot-functions.txt, from scripts/host-hot-functions.sh),
// so that the kernel's 64 KiB fault-around maps its own code rather than neighbours it never runs;
// packed relative relocations (DT_RELR, glibc 2.36) replace a 0.9 MB table ld.so reads at each start;
// libstdc++ comes from its static archive (link/libstdc++.so says how); and the host exports no
// symbols (the static stdlib's link arguments ask for --export-dynamic, which only a program that
// libraries call back into by name needs; the host's 2,366 exported Swift symbols were symbol
// table that ld.so read at start: 0.3 MB in paired runs). Idle host in make bench: 16.2 -> 12.3 MB
// with the first three, 9.0 MB with this and CHostMemory's fault-around call.
// ThreadSanitizer's own C++ runtime wants the shared libstdc++, so `make tsan` keeps it.
let hostLink = Context.packageDirectory + "/Sources/headlines-host/link"
// The host's own modules put each function in its own section, so that the list can move them
// one by one (otherwise a file's hot function brings the whole file's code along).
let hostCodeSettings: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-function-sections"])]
let hostLinkerSettings: [LinkerSetting] = [.unsafeFlags(
    ["-Xlinker", "--wrap=mktemp", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
     "-Xlinker", "--no-export-dynamic",
     "-Xlinker", "--symbol-ordering-file=\(hostLink)/hot-functions.txt", "-Xlinker", "--no-warn-symbol-ordering"]
    + (ProcessInfo.processInfo.environment["HEADLINES_TSAN"] == nil ? ["-L", hostLink] : []))]

// The CLI is also the host's fetch child, whose start-up is most of a reload's latency (issue 14),
// and most of that start-up is ld.so binding symbols: libcrypto, GnuTLS and friends (Debian's
// libcurl brings them in, several levels deep) bind thousands of their own symbols, each lookup
// walking the global scope from the front. Named here, they sit in its first level instead of the
// third: about 0.8 ms off each start. Only the ones this machine has; without them nothing changes.
let libraryDir = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu"].first { FileManager.default.fileExists(atPath: $0) }
let earlyLibraries = ["libcrypto.so.3", "libssl.so.3", "libgnutls.so.30", "libnettle.so.8", "libhogweed.so.6",
                      "libunistring.so.2", "libldap-2.5.so.0"]
    .filter { name in libraryDir.map { FileManager.default.fileExists(atPath: $0 + "/" + name) } ?? false }
let cliLinkerSettings: [LinkerSetting] = [.unsafeFlags(
    ["-Xlinker", "--wrap=mktemp"] + (earlyLibraries.isEmpty ? [] : ["-Xlinker", "--no-as-needed"])
    + earlyLibraries.flatMap { ["-Xlinker", "-l:" + $0] })]

// headlines-fetch, the host's reload child, starts at every reload, and that start was most of a
// reload's latency (issue 14): Debian's libcurl brings in some fifty libraries, whose mapping,
// page faults and symbol binding took 12 to 20 ms a start on this kind of machine. Its link puts
// link/ first on the library path: linker scripts there named libcurl.so, libxml2.so,
// libglib-2.0.so and libstdc++.so make the -l flags its system libraries ask for take Debian's
// static archives, so it maps itself and libc only (the set-up suite checks). libc stays shared:
// getaddrinfo's NSS modules and iconv's converters are loaded from the system's glibc.
// ThreadSanitizer builds (make tsan) link it like the CLI, with the real libraries and without
// CFetchStubs.
let fetchLink = Context.packageDirectory + "/Sources/headlines-fetch/link"
let fetchLinkerSettings: [LinkerSetting] = [.unsafeFlags(
    ["-Xlinker", "--wrap=mktemp", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
     "-Xlinker", "--no-export-dynamic"]
    + (ProcessInfo.processInfo.environment["HEADLINES_TSAN"] == nil ? ["-Xclang-linker", "--ld-path=\(fetchLink)/ld.lld"] : []))]

// SwiftPM splits a pkgConfig value at spaces, so a checkout whose path has one uses libnotify.pc
// itself (the same headers and libraries, and SwiftPM's -pthread warning).
let libnotifyPkgConfig = Context.packageDirectory.contains(" ")
    ? "libnotify" : Context.packageDirectory + "/Sources/CGLibNotify/headlines-libnotify.pc"

let package = Package(
    name: "headlines",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "headlines", targets: ["headlines"]),
        .executable(name: "headlines-host", targets: ["headlines-host"]),
        .executable(name: "headlines-bar", targets: ["headlines-bar"]),
        .executable(name: "headlines-fetch", targets: ["headlines-fetch"]),
    ],
    targets: [
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "FeedXML", dependencies: ["CLibXML2"]),
        .target(name: "HeadlinesCore", swiftSettings: hostCodeSettings),
        .target(name: "HeadlinesSources", dependencies: ["HeadlinesCore", "FeedXML"]),
        .target(name: "HeadlinesHTTP", dependencies: ["HeadlinesCore", "HeadlinesSources", "CCurl"]),
        // Its own .pc file, by path: libnotify.pc's flags less the -pthread SwiftPM warns about and
        // drops (the file says why).
        .systemLibrary(
            name: "CGLibNotify",
            pkgConfig: libnotifyPkgConfig,
            providers: [.apt(["libnotify-dev", "libglib2.0-dev"])]
        ),
        .systemLibrary(name: "CGLib", pkgConfig: "glib-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .target(name: "HeadlinesGLib", dependencies: ["HeadlinesCore", "CGLib"], swiftSettings: hostCodeSettings),
        .target(name: "HeadlinesDesktop", dependencies: ["HeadlinesCore", "HeadlinesGLib", "CGLibNotify"], swiftSettings: hostCodeSettings),
        // CLinkWraps: each shipped program routes exactly one libc reference of the toolchain's static
        // archives there with --wrap, so that its release link prints no glibc warning (mktemp from
        // libFoundationEssentials.a; dlopen from libswiftCore.a in the static bar). link_wraps.c says why.
        .target(name: "CLinkWraps"),
        .executableTarget(name: "headlines",
                          dependencies: ["HeadlinesCore", "HeadlinesSources", "HeadlinesHTTP", "HeadlinesDesktop", "CLinkWraps"],
                          linkerSettings: cliLinkerSettings),
        .target(name: "CHostMemory"),
        // headlines-fetch: the host's reload child, linked from static archives (see above).
        .target(name: "CFetchStubs"),
        .executableTarget(name: "headlines-fetch",
                          dependencies: ["HeadlinesCore", "HeadlinesSources", "HeadlinesHTTP", "HeadlinesGLib", "CLinkWraps"]
                              + (ProcessInfo.processInfo.environment["HEADLINES_TSAN"] == nil ? ["CFetchStubs"] : []),
                          exclude: ["link"], linkerSettings: fetchLinkerSettings),
        .executableTarget(name: "headlines-host", dependencies: ["HeadlinesCore", "HeadlinesDesktop", "CLinkWraps", "CHostMemory"],
                          exclude: ["link"], linkerSettings: hostLinkerSettings),
        // headlines-bar: bar copies and one-shot blocks, fully static, Swift stdlib + Glibc only.
        .target(name: "CBarSys"),
        .executableTarget(name: "headlines-bar", dependencies: ["CBarSys", "CLinkWraps"], linkerSettings: barLinkerSettings),
        .executableTarget(name: "headlines-bench", dependencies: ["HeadlinesCore", "HeadlinesSources", "HeadlinesHTTP"]),
        .executableTarget(name: "headlines-feedcheck", dependencies: ["HeadlinesCore", "HeadlinesSources"]),
        .target(name: "TestSupport", dependencies: ["HeadlinesCore", "HeadlinesSources"], path: "Tests/TestSupport"),
        .testTarget(name: "HeadlinesCoreTests", dependencies: ["HeadlinesCore", "HeadlinesSources", "TestSupport"]),
        .testTarget(name: "TimelineTests", dependencies: ["HeadlinesCore", "HeadlinesSources", "TestSupport"]),
        .testTarget(name: "FeedTests", dependencies: ["HeadlinesCore", "HeadlinesSources", "TestSupport"]),
        .testTarget(name: "HostTests", dependencies: ["HeadlinesCore", "HeadlinesSources", "TestSupport"]),
        .testTarget(name: "HeadlinesDesktopTests",
                    dependencies: ["HeadlinesDesktop", "HeadlinesCore", "HeadlinesSources", "TestSupport", "CLinkWraps"]),
        .testTarget(name: "EndToEndTests",
                    dependencies: ["HeadlinesCore", "HeadlinesSources", "HeadlinesHTTP", "HeadlinesDesktop", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
