import Foundation
import HeadlinesCore
import TestSupport
import XCTest

/// `provider = json` with a key (header or query parameter), a User-Agent, HTML-unescaped links
/// and images, and an error-message path, against a loopback server.
final class JSONProviderKeyEndToEndTests: EndToEndTestCase {
    static let key = "SECRET-json-777"
    let redditPaths = """
        items-path = data.children
        title-path = data.title
        link-path = data.url
        date-path = data.created_utc
        id-path = data.name
        image-path = data.preview.images.0.source.url

        """

    func fetch(_ config: String, env: [String: String] = ["HEADLINES_JSON_API_KEY": key]) throws -> CLIRunner.Result {
        try cli.writeConfig("[source]\nprovider = json\nurl = \(server.baseURL.absoluteString)/api/items?lang=en\n" + config)
        return try cli.run(["fetch"], environment: env)
    }

    func assertKeyNowhere(_ run: CLIRunner.Result, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(run.stdout.contains(Self.key) || run.stderr.contains(Self.key), "output holds the key", file: file, line: line)
        let walker = FileManager.default.enumerator(at: cli.root, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            let text = FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) } ?? ""
            XCTAssertFalse(text.contains(Self.key), "\(url.path) holds the key", file: file, line: line)
        }
    }

    func testKeyInAHeaderIsNeverInTheURL() throws {
        server.route("/api/items", .json(FixturePaths.data("reddit/hot.json")))
        let run = try fetch(redditPaths + "api-key-header = X-Api-Key\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request.header("x-api-key"), Self.key)
        XCTAssertFalse(request.target.contains(Self.key), request.target)
        assertKeyNowhere(run)
    }

    func testKeyAsAQueryParameterJoinsTheURLsOwnQuery() throws {
        server.route("/api/items", .json(FixturePaths.data("reddit/hot.json")))
        let run = try fetch(redditPaths + "api-key-param = apikey\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(server.requests.first?.queryItems, .pairs([("lang", "en"), ("apikey", Self.key)]))
        assertKeyNowhere(run)
    }

    func testAKeyedJSONAPIWithoutTheKeySaysWhereToPutIt() throws {
        let run = try fetch(redditPaths + "api-key-param = apikey\n", env: [:])
        XCTAssertTrue(run.stderr.contains("needs an API key: set HEADLINES_JSON_API_KEY or [source] api-key-file"), run.stderr)
        XCTAssertEqual(server.requests.count, 0)
    }

    func testUserAgentAndHTMLUnescapedImagesAndLinks() throws {
        server.route("/api/items", .json(FixturePaths.data("reddit/hot.json")))
        let run = try fetch(redditPaths + "user-agent = linux:my-widget:2.0 (by /u/me)\nhtml-unescape = true\n", env: [:])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(server.requests.first?.header("user-agent"), "linux:my-widget:2.0 (by /u/me)")
        let listed = try listJSON()
        let ci = try XCTUnwrap(listed.first { $0.id == "t3_1h3zq9c" })
        XCTAssertEqual(ci.url, "https://engineering.example.com/blog/ci-40-to-6?utm_source=reddit&utm_medium=social")
        XCTAssertEqual(ci.image, "https://external-preview.redd.it/ci-six.jpg?width=640&crop=smart&auto=webp&s=9d8e7f")
        XCTAssertEqual(ci.published_at, "2026-11-29T18:50:00.000Z")
    }

    func testImagesKeepTheirEscapesWithoutHTMLUnescape() throws {
        server.route("/api/items", .json(FixturePaths.data("reddit/hot.json")))
        let run = try fetch(redditPaths, env: [:])
        XCTAssertEqual(run.status, 0, run.stderr)
        let ci = try XCTUnwrap(try listJSON().first { $0.id == "t3_1h3zq9c" })
        XCTAssertEqual(ci.image, "https://external-preview.redd.it/ci-six.jpg?width=640&amp;crop=smart&amp;auto=webp&amp;s=9d8e7f")
    }

    func testCommentsPathGivesTheDiscussionLink() throws {
        server.route("/api/items", .json(FixturePaths.data("lobsters/hottest.json")))
        let run = try fetch("title-path = title\nlink-path = url\nid-path = short_id\ndate-path = created_at\ncomments-path = comments_url\n", env: [:])
        XCTAssertEqual(run.status, 0, run.stderr)
        let zig = try XCTUnwrap(try listJSON().first { $0.id == "xk3p9q" })
        XCTAssertEqual(zig.comments_url, "https://lobste.rs/s/xk3p9q/zig_s_new_async_explained")
        XCTAssertEqual(zig.published_at, "2026-11-29T20:03:11.000Z")
    }

    func testErrorPathPutsTheServersMessageInTheSentence() throws {
        server.route("/api/items", .json(Data(#"{"error":{"code":"bad_token","message":"Token expired on 2026-11-01"}}"#.utf8), status: 401))
        let run = try fetch(redditPaths + "api-key-header = Authorization\nerror-path = error.message\n")
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("(Token expired on 2026-11-01)"), run.stderr)
    }

    func testErrorPathUnder200IsAFailureNotAnEmptyList() throws {
        server.route("/api/items", .json(Data(#"{"ok":false,"message":"quota exceeded for today"}"#.utf8)))
        let run = try fetch(redditPaths + "error-path = message\n", env: [:])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("(quota exceeded for today)"), run.stderr)
    }
}
