import Foundation
import TestSupport
import XCTest

/// Links from the API reach a browser only when they are http or https, and then as they are, as
/// one argument, never through a shell.
final class LinkSchemeTests: HostTestCase {
    func testOnlyHttpLinksAreKeptAndOneWithShellSyntaxReachesTheBrowserAsItIs() throws {
        // Given an API whose three newest articles link to javascript:, file: and data:, and whose
        // fourth is a valid https link that a shell would run a command from
        let marker = cli.root.appendingPathComponent("pwned")
        let injected = "https://news.example.com/story;touch$IFS\(marker.path);x"
        var envelope = try XCTUnwrap(JSONSerialization.jsonObject(with: fixture) as? [String: Any])
        var results = try XCTUnwrap(envelope["results"] as? [[String: Any]])
        for (k, link) in ["javascript:alert(document.cookie)", "file:///etc/passwd", "data:text/html,<script>alert(1)</script>", injected].enumerated() {
            results[k]["href"] = link
        }
        envelope["results"] = results
        server.route(Self.path, .json(try JSONSerialization.data(withJSONObject: envelope)))
        try writeConfig(interval: "1h", dailyBudget: 10)
        let opened = cli.root.appendingPathComponent("opened.txt")
        _ = try installFakeBrowser(opened: opened)

        // When the host reloads, and its headline and `open 1` are opened
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)
        let (urls, list) = try listedAfterReload()
        XCTAssertEqual(try run(["open"]).status, 0)
        XCTAssertEqual(browserOpened(opened, count: 1), injected + "\n")
        XCTAssertEqual(try run(["open", "1"]).status, 0)
        let browsed = browserOpened(opened, count: 2)

        // Then the list holds the http(s) links only, the shell-looking one first, and the browser
        // got it twice exactly as it is, and nothing ran
        XCTAssertEqual(urls.count, results.count - 3, list.stdout + list.stderr)
        XCTAssertEqual(urls.first, injected)
        XCTAssertTrue(urls.allSatisfy { $0.hasPrefix("https://") || $0.hasPrefix("http://") }, "\(urls)")
        XCTAssertEqual(browsed, injected + "\n" + injected + "\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker.path), "a shell ran the link's command")
    }
}
