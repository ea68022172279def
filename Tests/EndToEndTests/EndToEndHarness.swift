import Foundation
import TestSupport
import XCTest

/// What every end-to-end test shares: a loopback server, a sealed-off `headlines`, the test key.
class EndToEndTestCase: XCTestCase {
    static let apitubeKey = "sk-test-SECRET-4242"
    static let newsapiKey = "na-test-SECRET-9191"
    static let apitubePath = "/v1/news/top-headlines"
    static let newsapiPath = "/v2/top-headlines"

    var server: LoopbackHTTPServer!
    var cli: CLIRunner!

    override func setUpWithError() throws {
        server = LoopbackHTTPServer()
        try server.start()
        cli = try CLIRunner()
    }

    override func tearDown() {
        server?.stop()
        cli?.cleanUp()
        server = nil
        cli = nil
    }

    var apitubeFixture: Data { FixturePaths.data("apitube/top-headlines-fl.json") }

    /// `headlines [extra] fetch --provider apitube --base-url <server>` with the test key.
    func fetchAPITube(_ extra: [String] = [], baseURL: URL? = nil, timeout: TimeInterval = 30) throws -> CLIRunner.Result {
        try cli.run(extra + ["fetch", "--provider", "apitube", "--base-url", (baseURL ?? server.baseURL).absoluteString],
                    environment: ["APITUBE_API_KEY": Self.apitubeKey], timeout: timeout)
    }

    /// `headlines list --json`, decoded.
    func listJSON(file: StaticString = #filePath, line: UInt = #line) throws -> [ListedHeadline] {
        let result = try cli.run(["list", "--json"])
        XCTAssertEqual(result.status, 0, "list --json failed: \(result.stderr)", file: file, line: line)
        return try JSONDecoder().decode([ListedHeadline].self, from: Data(result.stdout.utf8))
    }

    /// Fails if any output of a run, or anything written to disk, contains an API key.
    func assertNoKeyLeaks(_ result: CLIRunner.Result, file: StaticString = #filePath, line: UInt = #line) {
        for key in [Self.apitubeKey, Self.newsapiKey] {
            XCTAssertFalse(result.stdout.contains(key), "stdout contains the API key", file: file, line: line)
            XCTAssertFalse(result.stderr.contains(key), "stderr contains the API key", file: file, line: line)
            for path in [cli.cacheFile.path, cli.statusFile.path] {
                let text = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
                XCTAssertFalse(text.contains(key), "\(path) contains the API key", file: file, line: line)
            }
        }
    }
}

/// One object of `headlines list --json`.
struct ListedHeadline: Decodable, Equatable {
    var id: String
    var title: String
    var url: String
    var source: String
    var published_at: String
    var image: String?
    var comments_url: String?
}

/// The parts of the APITube fixture the tests compare against.
struct APITubeFixtureArticle: Decodable {
    var id: Int
    var title: String
    var href: String
    var published_at: String
    var image: String

    static func all(_ data: Data) throws -> [APITubeFixtureArticle] {
        struct Envelope: Decodable { var results: [APITubeFixtureArticle] }
        return try JSONDecoder().decode(Envelope.self, from: data).results
    }

    /// The date as `list --json` writes it: RFC 3339 in UTC with exactly three fraction digits
    /// (`...:00Z` in the fixture comes back as `...:00.000Z`; milliseconds that were there are kept).
    var publishedAtWithMilliseconds: String {
        guard published_at.hasSuffix("Z"), !published_at.contains(".") else { return published_at }
        return String(published_at.dropLast()) + ".000Z"
    }
}

extension Array where Element == LoopbackHTTPServer.QueryItem {
    /// `[("a", "1"), ("b", "2")]` as query items, for comparing with what a server recorded.
    static func pairs(_ list: [(String, String)]) -> Self { list.map { .init($0.0, $0.1) } }
}
