// swift-tools-version:6.0
// The module split, from the inside out:
//   FeedXML          the only importer of CLibXML2: feed bytes (any charset iconv knows) to an element
//                    tree, with libxml2's recovery, no network and no external entities.
//   BarFormats       pure Swift on the standard library alone: each bar's and widget host's escaping,
//                    framing and error output, the headline keys clicks carry, the runtime
//                    folders' layout and the version; shared by the host (through HeadlinesCore)
//                    and the static headlines-bar.
//   HeadlinesCore    pure Swift on FoundationEssentials (no ICU, no Foundation, no libxml2): model,
//                    cache and state files, config model, timeline and its layout, the host engine,
//                    budget, bar rendering. Never imports C itself. Time is always passed in. It is
//                    all the resident host links, so it stays small.
//   HeadlinesSources where headlines come from: feed readers (on FeedXML), providers, the HTTP
//                    transport protocol, the refresher. Runs in `headlines-fetch` (the host's
//                    short-lived reload child and the commands that fetch or parse), never in the
//                    resident host.
//   HeadlinesHTTP    the only importer of CCurl: the libcurl transport behind HTTPTransport.
//   CGLibNotify      system library: libnotify + GLib/GIO/GObject headers via its own .pc file.
//   HeadlinesGLib    the part of the desktop layer that needs GLib alone (CGLib): the config file
//                    (GKeyFile), the image store's names, the parent watch, where the programs are,
//                    and ProcessLauncher, the one way the GLib programs start another program.
//   HeadlinesDesktop the only importer of CGLibNotify (of the tests, HostTests uses its GIO for a
//                    fake notification server): the GLib loop and the widget host, the bus
//                    (service and client, the one way a command reaches the host), libnotify,
//                    and opening a link with the desktop's handler (GIO).
//   CGdkPixbuf       system library, headers only: gdk-pixbuf (and the GObject and GLib it is built on).
//   CLoadOnUse       the one way a library is loaded (dlopen) on first use instead of linked.
//   CGdkPixbufOnUse  gdk-pixbuf loaded (CLoadOnUse) the first time an image is stored, not linked:
//                    most reloads store none, and the reload child then never maps it.
//   HeadlinesImages  the only importer of CGdkPixbufOnUse: notification images scaled and stored.
//   CLibSecret       system library, headers only: libsecret (and the GIO it is built on).
//   CLibSecretOnUse  libsecret loaded the first time a password is looked up or stored.
//   HeadlinesSecrets the only importer of CLibSecretOnUse: a sync service's password, from the
//                    Secret Service, a password-command or a password-file, `headlines login`'s
//                    store, and signing in with it (SyncSignIn).
//   HeadlinesCommandLine what both command-line programs share: the context a command runs with.
//   headlines        the CLI, a thin client of the host's bus; hands the commands that fetch or
//                    parse to headlines-fetch and the bar formats to headlines-bar.
//   headlines-reload the host's reload child (installed in libexec): one reload with core, sources
//                    and HTTP, its report on stdout, the page's notification images stored
//                    (HeadlinesImages); it sandboxes itself first (CSandbox: no_new_privs,
//                    Landlock, libseccomp). No desktop layer: no GIO, D-Bus or libnotify in the
//                    process that parses what servers send.
//   headlines-fetch  the CLI's commands that fetch or parse (fetch, add, import, export, status,
//                    demo) and the ones that need a sync service's password (login, and
//                    sync-check for doctor); it links the desktop layer (demo runs a host).
//   headlines-bar    bar copies and one-shot blocks: fully static, no Foundation; prints the host's
//                    ready-made lines; clicks run `headlines` beside it (CBarSys wraps inotify and
//                    posix_spawn for it).
//   headlines-host   the resident widget host (installed in libexec; `headlines run` execs it):
//                    core + desktop only, no libcurl, no libxml2; each reload runs in a
//                    `headlines-reload` child, so a parser crash or a memory spike never touches it.
import PackageDescription
// Foundation here, in the manifest only: ProcessInfo is how a manifest reads the environment
// (HEADLINES_TSAN below); none of the package's targets imports it.
import Foundation

// headlines-bar is fully static (not even libc.so): every bar copy shares its pages with the others,
// with almost nothing private, and a one-shot block needs no dynamic loader. It carries the Swift
// stdlib and glibc only, no Debian library. ThreadSanitizer's runtime cannot be linked into a static
// executable, so `make tsan` (HEADLINES_TSAN=1) links it dynamically.
let barLinkerSettings: [LinkerSetting] = ProcessInfo.processInfo.environment["HEADLINES_TSAN"] == nil
    ? [.unsafeFlags(["-static-executable"])] : []

// Three hand-written .pc files stay (each says why inside): Debian's libnotify.pc,
// gdk-pixbuf-2.0.pc and libsecret-1.pc reach a -pthread flag that SwiftPM refuses with a warning,
// and a build without warnings is checked. SwiftPM splits a pkgConfig value at spaces, so a
// checkout whose path has one uses the Debian files themselves (the same headers and libraries,
// and the warning).
let libnotifyPkgConfig = Context.packageDirectory.contains(" ")
    ? "libnotify" : Context.packageDirectory + "/Sources/CGLibNotify/headlines-libnotify.pc"
let gdkPixbufPkgConfig = Context.packageDirectory.contains(" ")
    ? "gdk-pixbuf-2.0" : Context.packageDirectory + "/Sources/CGdkPixbuf/headlines-gdk-pixbuf.pc"
let libsecretPkgConfig = Context.packageDirectory.contains(" ")
    ? "libsecret-1" : Context.packageDirectory + "/Sources/CLibSecret/headlines-libsecret.pc"

// The module test targets: a test file sees the members of a module it does not import (an
// extension from HeadlinesSources, say) only without this, which would hide what it really tests.
let oneModuleTests: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
    name: "headlines",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "headlines", targets: ["headlines"]),
        .executable(name: "headlines-host", targets: ["headlines-host"]),
        .executable(name: "headlines-bar", targets: ["headlines-bar"]),
        .executable(name: "headlines-fetch", targets: ["headlines-fetch"]),
        .executable(name: "headlines-reload", targets: ["headlines-reload"]),
    ],
    targets: [
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "FeedXML", dependencies: ["CLibXML2"]),
        .target(name: "BarFormats"),
        .target(name: "HeadlinesCore", dependencies: ["BarFormats"]),
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
        .target(name: "HeadlinesGLib", dependencies: ["HeadlinesCore", "CGLib"]),
        // The D-Bus interface's introspection XML, embedded from packaging/dbus (C's #embed).
        .target(name: "CBusInterface"),
        .target(name: "HeadlinesDesktop", dependencies: ["HeadlinesCore", "HeadlinesGLib", "CGLibNotify", "CBusInterface"]),
        // Headers only: CGdkPixbufOnUse loads the library when an image is stored.
        .systemLibrary(name: "CGdkPixbuf", pkgConfig: gdkPixbufPkgConfig, providers: [.apt(["libgdk-pixbuf-2.0-dev"])]),
        // The one way a library is loaded on first use (dlopen) instead of linked.
        .target(name: "CLoadOnUse"),
        .target(name: "CGdkPixbufOnUse", dependencies: ["CGdkPixbuf", "CLoadOnUse"]),
        .target(name: "HeadlinesImages", dependencies: ["HeadlinesCore", "HeadlinesGLib", "CGdkPixbufOnUse"]),
        // Headers only: CLibSecretOnUse loads the library when a password is looked up or stored.
        .systemLibrary(name: "CLibSecret", pkgConfig: libsecretPkgConfig, providers: [.apt(["libsecret-1-dev"])]),
        .target(name: "CLibSecretOnUse", dependencies: ["CLibSecret", "CLoadOnUse"]),
        // HeadlinesSources and HeadlinesHTTP for signing in (SyncSignIn); HeadlinesGLib for
        // ProcessLauncher, the one way these programs start another (the password-command).
        .target(name: "HeadlinesSecrets", dependencies: ["HeadlinesCore", "HeadlinesSources", "HeadlinesHTTP", "HeadlinesGLib", "CLibSecretOnUse"]),
        .target(name: "HeadlinesCommandLine", dependencies: ["HeadlinesCore", "HeadlinesGLib", "HeadlinesDesktop"]),
        // The control client: no libcurl, no libxml2. What fetches or parses runs in headlines-fetch.
        .executableTarget(name: "headlines",
                          dependencies: ["HeadlinesCore", "HeadlinesCommandLine", "HeadlinesDesktop", "HeadlinesGLib", "BarFormats"]),
        // The reload child's own sandbox (no_new_privs, Landlock, seccomp), in C for the syscalls.
        .systemLibrary(name: "CSeccomp", pkgConfig: "libseccomp", providers: [.apt(["libseccomp-dev"])]),
        .target(name: "CSandbox", dependencies: ["CSeccomp"]),
        .executableTarget(name: "headlines-fetch",
                          dependencies: ["HeadlinesCore", "HeadlinesCommandLine", "HeadlinesSources", "HeadlinesHTTP", "HeadlinesGLib",
                                         "HeadlinesDesktop", "HeadlinesSecrets"]),
        // The reload child: no HeadlinesDesktop, so no libnotify, GIO or D-Bus code in the process
        // that parses what servers send.
        .executableTarget(name: "headlines-reload",
                          dependencies: ["HeadlinesCore", "HeadlinesSources", "HeadlinesHTTP", "HeadlinesGLib", "HeadlinesImages",
                                         "HeadlinesSecrets", "CSandbox"]),
        .executableTarget(name: "headlines-host", dependencies: ["HeadlinesCore", "HeadlinesDesktop", "CGLib"]),
        // headlines-bar: bar copies and one-shot blocks, fully static, Swift stdlib + Glibc only.
        .target(name: "CBarSys"),
        .executableTarget(name: "headlines-bar", dependencies: ["CBarSys", "BarFormats"], linkerSettings: barLinkerSettings),
        .executableTarget(name: "headlines-bench", dependencies: ["HeadlinesCore", "HeadlinesSources", "HeadlinesHTTP"]),
        .executableTarget(name: "headlines-feedcheck", dependencies: ["HeadlinesCore", "HeadlinesSources"]),
        .target(name: "TestSupport", dependencies: ["HeadlinesCore", "HeadlinesSources"], path: "Tests/TestSupport"),
        // One test target per module, named after it, testing that module alone (TestSupport and
        // the modules under it only build fixtures); HostTests and EndToEndTests run the programs.
        .testTarget(name: "BarFormatsTests", dependencies: ["BarFormats"], swiftSettings: oneModuleTests),
        .testTarget(name: "FeedXMLTests", dependencies: ["FeedXML", "TestSupport"], swiftSettings: oneModuleTests),
        // HeadlinesSources too, in the five files that import it: the engine tests fetch in process
        // through a Refresher, the checks over every state file include the feeds' one, and the
        // malformed-JSON checks decode into JSONValue, a tree that reads every value.
        .testTarget(name: "HeadlinesCoreTests", dependencies: ["HeadlinesCore", "BarFormats", "HeadlinesSources", "TestSupport"],
                    swiftSettings: oneModuleTests),
        .testTarget(name: "HeadlinesSourcesTests", dependencies: ["HeadlinesSources", "HeadlinesCore", "TestSupport"],
                    swiftSettings: oneModuleTests),
        .testTarget(name: "HeadlinesGLibTests", dependencies: ["HeadlinesGLib", "HeadlinesCore"], swiftSettings: oneModuleTests),
        .testTarget(name: "HeadlinesSecretsTests", dependencies: ["HeadlinesSecrets", "HeadlinesCore", "TestSupport"],
                    swiftSettings: oneModuleTests),
        // CGLibNotify for GIO alone: the fake notification server the activation tests click with.
        .testTarget(name: "HostTests", dependencies: ["HeadlinesCore", "HeadlinesSources", "TestSupport", "CGLibNotify"]),
        // HeadlinesSources too: the memory check reloads through the real decoder and cache.
        .testTarget(name: "HeadlinesDesktopTests",
                    dependencies: ["HeadlinesDesktop", "HeadlinesCore", "HeadlinesSources", "TestSupport"],
                    swiftSettings: oneModuleTests),
        // The sync providers through libcurl, against a real FreshRSS (Tests/Servers) and loopback
        // servers; HeadlinesGLib for Fever's key.
        .testTarget(name: "SyncServiceTests",
                    dependencies: ["HeadlinesSources", "HeadlinesCore", "HeadlinesHTTP", "HeadlinesGLib", "TestSupport"]),
        // gdk-pixbuf linked: the image tests make and read images themselves.
        .testTarget(name: "EndToEndTests",
                    dependencies: ["HeadlinesCore", "HeadlinesSources", "HeadlinesHTTP", "HeadlinesDesktop", "HeadlinesImages",
                                   "CGdkPixbuf", "TestSupport"],
                    linkerSettings: [.linkedLibrary("gdk_pixbuf-2.0"), .linkedLibrary("gobject-2.0")]),
    ],
    swiftLanguageModes: [.v6]
)
