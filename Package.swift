// swift-tools-version:6.0
// The module split, from the inside out:
//   FeedXML          the only importer of CLibXML2: feed bytes (any charset iconv knows) to an element
//                    tree, with libxml2's recovery, no network and no external entities.
//   HeadlinesCore    pure Swift on FoundationEssentials (no ICU, no Foundation): model, providers, feed
//                    readers, cache, config model, timeline, budget, bar rendering. Never imports C
//                    itself. Time is always passed in.
//   HeadlinesHTTP    the only importer of CCurl: the libcurl transport behind the core's HTTPTransport.
//   CGLibNotify      system library: libnotify + GLib/GIO/GObject headers via pkg-config.
//   HeadlinesDesktop the only importer of CGLibNotify: GKeyFile, URL launching, the GLib loop,
//                    libnotify. Thin wrappers that implement the core's protocols.
//   headlines        the executable: parses arguments and wires core, HTTP and desktop together.
import PackageDescription

let package = Package(
    name: "headlines",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "headlines", targets: ["headlines"]),
    ],
    targets: [
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "FeedXML", dependencies: ["CLibXML2"]),
        .target(name: "HeadlinesCore", dependencies: ["FeedXML"]),
        .target(name: "HeadlinesHTTP", dependencies: ["HeadlinesCore", "CCurl"]),
        .systemLibrary(
            name: "CGLibNotify",
            pkgConfig: "libnotify",
            providers: [.apt(["libnotify-dev", "libglib2.0-dev"])]
        ),
        .target(name: "HeadlinesDesktop", dependencies: ["HeadlinesCore", "CGLibNotify"]),
        .executableTarget(name: "headlines", dependencies: ["HeadlinesCore", "HeadlinesHTTP", "HeadlinesDesktop"]),
        .executableTarget(name: "headlines-bench", dependencies: ["HeadlinesCore", "HeadlinesHTTP"]),
        .executableTarget(name: "headlines-feedcheck", dependencies: ["HeadlinesCore"]),
        // headlines-bar: bar copies and one-shot blocks, fully static, Swift stdlib + Glibc only.
        .target(name: "CBarSys"),
        .executableTarget(name: "headlines-bar", dependencies: ["CBarSys"],
                          linkerSettings: [.unsafeFlags(["-static-executable"])]),
        .target(name: "TestSupport", dependencies: ["HeadlinesCore"], path: "Tests/TestSupport"),
        .testTarget(name: "HeadlinesCoreTests", dependencies: ["HeadlinesCore", "TestSupport"]),
        .testTarget(name: "TimelineTests", dependencies: ["HeadlinesCore"]),
        .testTarget(name: "FeedTests", dependencies: ["HeadlinesCore", "TestSupport"]),
        .testTarget(name: "HostTests", dependencies: ["HeadlinesCore", "TestSupport"]),
        .testTarget(name: "HeadlinesDesktopTests", dependencies: ["HeadlinesDesktop", "HeadlinesCore", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["HeadlinesCore", "HeadlinesHTTP", "HeadlinesDesktop", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
