// swift-tools-version:6.0
// The module split, from the inside out:
//   HeadlinesCore    pure Swift + Foundation: model, providers, cache, config model, timeline, budget,
//                    bar rendering. Never sees C. Time is always passed in.
//   CGLibNotify      system library: libnotify + GLib/GIO/GObject headers via pkg-config.
//   HeadlinesDesktop the only importer of CGLibNotify: GKeyFile, URL launching, the GLib loop,
//                    libnotify. Thin wrappers that implement the core's protocols.
//   headlines        the executable: parses arguments and wires core and desktop together.
import PackageDescription

let package = Package(
    name: "headlines",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "headlines", targets: ["headlines"]),
    ],
    targets: [
        .target(name: "HeadlinesCore"),
        .systemLibrary(
            name: "CGLibNotify",
            pkgConfig: "libnotify",
            providers: [.apt(["libnotify-dev", "libglib2.0-dev"])]
        ),
        .target(name: "HeadlinesDesktop", dependencies: ["HeadlinesCore", "CGLibNotify"]),
        .executableTarget(name: "headlines", dependencies: ["HeadlinesCore", "HeadlinesDesktop"]),
        .executableTarget(name: "headlines-bench", dependencies: ["HeadlinesCore"]),
        .executableTarget(name: "headlines-feedcheck", dependencies: ["HeadlinesCore"]),
        .target(name: "TestSupport", dependencies: ["HeadlinesCore"], path: "Tests/TestSupport"),
        .testTarget(name: "HeadlinesCoreTests", dependencies: ["HeadlinesCore", "TestSupport"]),
        .testTarget(name: "TimelineTests", dependencies: ["HeadlinesCore"]),
        .testTarget(name: "FeedTests", dependencies: ["HeadlinesCore"]),
        .testTarget(name: "HostTests", dependencies: ["HeadlinesCore", "TestSupport"]),
        .testTarget(name: "HeadlinesDesktopTests", dependencies: ["HeadlinesDesktop", "HeadlinesCore", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["HeadlinesCore", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
