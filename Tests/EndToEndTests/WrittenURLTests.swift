import Foundation
import TestSupport
import XCTest

/// `import` and `add` write each feed's URL into the config as it was given: a `;` or `,` in its
/// path is another URL to a server that reads path parameters, so it is not percent-encoded; an
/// international host name is written the one way DNS knows it, as punycode.
final class WrittenURLTests: EndToEndTestCase {
    func importing(_ urls: [String]) throws -> CLIRunner.Result {
        let outlines = urls.map { #"<outline type="rss" text="F" xmlUrl="\#($0)"/>"# }.joined(separator: "\n")
        let opml = cli.root.appendingPathComponent("subs.opml")
        try Data("<?xml version=\"1.0\"?><opml version=\"2.0\"><body>\n\(outlines)\n</body></opml>\n".utf8).write(to: opml)
        let run = try cli.run(["import", opml.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run
    }

    func testPathParametersAndCommasAreKeptByteForByteAndReadBack() throws {
        let urls = ["https://example.com/news;jsessionid=AB12/feed.rss", "https://example.org/a,b/rss?tags=x,y&k=v;w",
                    "https://example.net/plain.xml"]
        let run = try importing(urls.map { $0.replacingOccurrences(of: "&", with: "&amp;") })
        XCTAssertTrue(run.stdoutLines.contains("feeds = " + urls.joined(separator: ";")), run.stdout)

        // The config that results reads back the same URLs.
        try cli.writeConfig(run.stdout)
        let export = try cli.run(["export", "--opml"])
        XCTAssertEqual(export.status, 0, export.stderr)
        for url in urls {
            XCTAssertTrue(export.stdout.contains(#"xmlUrl="\#(url.replacingOccurrences(of: "&", with: "&amp;"))""#), export.stdout)
        }
    }

    /// Kept as it is, this URL would read back as two: its `;` is the one thing encoded.
    func testAURLThatWouldSplitIsEncoded() throws {
        let run = try importing(["https://a.example/go;https://b.example/"])
        XCTAssertTrue(run.stdoutLines.contains("feeds = https://a.example/go%3Bhttps://b.example/"), run.stdout)
    }

    func testAnInternationalHostIsWrittenAsPunycode() throws {
        let run = try importing(["https://bücher.example/feed;v=1", "https://xn--nxasmq6b.example/rss"])
        XCTAssertTrue(run.stdoutLines.contains("feeds = https://xn--bcher-kva.example/feed;v=1;https://xn--nxasmq6b.example/rss"), run.stdout)
    }

    /// Through the loopback server as a proxy, which sees the host curl asks for.
    func testAddWritesAnInternationalHostAsPunycodeAndKeepsThePath() throws {
        server.route("http://xn--bcher-kva.example/feed;v=1,2", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: Data("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>Bücher</title><link>https://example.com/</link>
            <item><title>One</title><link>https://example.com/1</link></item></channel></rss>
            """.utf8)))
        try cli.writeConfig("[source]\nfeeds = https://a.example/rss\n")
        let run = try cli.run(["add", "http://bücher.example/feed;v=1,2"], environment: ["http_proxy": server.baseURL.absoluteString])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "Added Bücher (http://xn--bcher-kva.example/feed;v=1,2) to [source] feeds in \(cli.defaultConfigFile.path).\n")
        let text = String(decoding: try Data(contentsOf: cli.defaultConfigFile), as: UTF8.self)
        XCTAssertEqual(text, "[source]\nfeeds = https://a.example/rss;http://xn--bcher-kva.example/feed;v=1,2\n")
        let again = try cli.run(["add", "http://bücher.example/feed;v=1,2"], environment: ["http_proxy": server.baseURL.absoluteString])
        XCTAssertTrue(again.stdout.contains("is already in"), again.stdout + again.stderr)
    }
}
