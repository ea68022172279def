import Foundation
import TestSupport
import XCTest

/// The reload child sandboxes itself whoever starts it, after reading its config and key file and
/// before the first byte from a server, and a reload still does everything it did: fetch, parse,
/// write its cache and status into folders that did not exist yet.
/// (What the sandbox refuses is shown by the hostile sub-suite 84-sandbox, with a probe inside the
/// parser.)
final class ReloadChildSandboxTests: EndToEndTestCase {
    func testTheChildSandboxesItselfAndStillReloadsWithAKeyFileOutsideItsFolders() throws {
        // Given an APITube config whose key lives in a file outside every folder the child may
        // read once sandboxed, and no cache or state folder yet
        server.route(Self.apitubePath, .respond(status: 200, headers: ["Content-Type": "application/json"], body: apitubeFixture))
        let keyFile = cli.root.appendingPathComponent("home/keys/apitube")
        try FileManager.default.createDirectory(at: keyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(Self.apitubeKey.utf8).write(to: keyFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
        try cli.writeConfig("[source]\nprovider = apitube\nbase-url = \(server.baseURL.absoluteString)\napi-key-file = \(keyFile.path)\n")

        // When the child runs as the host runs it, with --verbose
        let run = try cli.reload(["--verbose"])

        // Then it says how it sandboxed itself: no_new_privs, Landlock or why not, seccomp
        XCTAssertEqual(run.status, 0, run.stderr)
        let said = run.stderrLines.filter { $0.contains("reload child sandboxed") }
        XCTAssertEqual(said.count, 1, run.stderr)
        let line = said.first ?? ""
        XCTAssertTrue(line.hasPrefix("headlines: reload child sandboxed: no_new_privs, "), line)
        XCTAssertTrue(line.hasSuffix(", seccomp filter"), line)
        XCTAssertTrue(line.contains(", Landlock ABI ") && line.contains("writes only \(cli.cacheHome.path)/headlines and \(cli.stateHome.path)/headlines")
                      || line.contains(", no Landlock ("), line)
        // and the reload sent the key, reported the page and wrote its cache and status
        XCTAssertEqual(server.requests.first?.header("x-api-key"), Self.apitubeKey)
        let report = try JSONDecoder().decode(Report.self, from: Data(run.stdout.utf8))
        XCTAssertFalse(report.headlines.isEmpty, run.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cli.cacheFile.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: cli.statusFile.path))
        assertNoKeyLeaks(run)
    }

    func testWithoutVerboseTheSandboxIsSilent() throws {
        // Given a feed
        server.route("/a.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"],
                                        body: FixturePaths.data("feeds/sample-rss2.xml")))
        try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(server.baseURL.absoluteString)/a.rss\n")
        // When the child runs without --verbose
        let run = try cli.reload()
        // Then it reloads and says nothing about its sandbox
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertTrue(FileManager.default.fileExists(atPath: cli.cacheFile.path))
    }

    private struct Report: Decodable {
        var headlines: [Item]
        struct Item: Decodable { var title: String }
    }
}
