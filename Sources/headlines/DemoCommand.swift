import Foundation
import HeadlinesCore

/// `headlines demo`: the real APITube decoding path on the bundled fixtures, no key, no network.
enum DemoCommand {
    static func run(_ context: AppContext) async -> Int32 {
        guard let dir = DemoData.directory(environment: context.environment),
              let body = FileManager.default.contents(atPath: dir + "/apitube/top-headlines-fl.json") else {
            Output.error("headlines: the demo data is missing; set HEADLINES_DATA_DIR to the Fixtures folder of the source tree.")
            return 1
        }
        let transport = FixtureTransport(routes: [
            "/v1/news/top-headlines": HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: body),
        ])
        let provider = APITubeProvider(options: .init(baseURL: URL(string: "https://demo.invalid")!),
                                       apiKey: "demo", transport: transport)
        let demoCache = HeadlineCache(path: context.paths.cacheDir + "/demo/headlines.json")
        let refresher = Refresher(provider: provider, cache: demoCache,
                                  statusStore: RefreshStatusStore(path: context.paths.cacheDir + "/demo/status.json"))
        let now = Date()
        switch await refresher.refresh(now: now, warn: { Output.error("headlines: warning: \($0)") }) {
        case let .success(cached):
            Output.print("Demo: \(cached.headlines.count) headlines from the bundled APITube sample (no network used).\n")
            Output.print(ListRenderer.text(cached, status: RefreshStatus(), now: now))
            return 0
        case let .failure(failure):
            Output.error("headlines: \(failure.message)")
            return 1
        }
    }
}

/// Where the bundled sample data is: $HEADLINES_DATA_DIR, the installed share folder next to the
/// binary, or the source tree the binary was built from.
enum DemoData {
    static func directory(environment: [String: String]) -> String? {
        var candidates: [String] = []
        if let dir = environment["HEADLINES_DATA_DIR"] { candidates.append(dir) }
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        if let real = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: real).deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("share/headlines/demo").path)
        }
        candidates.append(exe.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/headlines/demo").path)
        let sourceTree = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures").path
        candidates.append(sourceTree)
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/apitube/top-headlines-fl.json") }
    }
}
