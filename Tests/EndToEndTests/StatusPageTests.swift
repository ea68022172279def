import Foundation
import TestSupport
import XCTest

/// `headlines status` as a page read at a glance: when the budget is spent it says
/// when the next reload is allowed (the ledger's oldest attempt + 24 h) and why; muted sources
/// are listed; `--json` carries the same facts.
final class StatusPageTests: EndToEndTestCase {
    private var rss: Data { FixturePaths.data("feeds/sample-rss2.xml") }

    func testASpentBudgetSaysWhenTheNextReloadIsAllowed() throws {
        // Given a budget of one reload a day, spent by one refresh
        server.route("/a.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: rss))
        let config = try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(server.baseURL.absoluteString)/a.rss\n[refresh]\ndaily-budget = 1\n")
        let before = Date()
        let (bus, host) = try cli.activatingBus()
        defer { bus.stop() }
        let refresh = try cli.run(["--config", config.path, "refresh"], environment: host)
        XCTAssertEqual(refresh.status, 0, refresh.stderr)

        // When status is asked
        let page = try cli.run(["--config", config.path, "status"])
        let json = try cli.run(["--config", config.path, "status", "--json"])

        // Then the next reload is the attempt + 24 h, for the daily budget, not "when a host runs"
        let next = page.stdoutLines.first { $0.hasPrefix("Next reload:") } ?? ""
        XCTAssertTrue(next.hasPrefix("Next reload:   not before ") && next.hasSuffix("(the daily budget is spent)"), page.stdout)
        XCTAssertFalse(page.stdout.contains("when a host runs"), page.stdout)
        struct Report: Decodable { var next_reload_allowed: Date?; var next_reload_limit: String?; var muted_sources: [String] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let report = try decoder.decode(Report.self, from: Data(json.stdout.utf8))
        XCTAssertEqual(report.next_reload_limit, "daily-budget")
        let allowed = try XCTUnwrap(report.next_reload_allowed, json.stdout)
        XCTAssertEqual(allowed.timeIntervalSince(before), 24 * 3600, accuracy: 30, json.stdout)
    }

    func testMutedSourcesAreListed() throws {
        // Given two muted sources
        let config = try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(server.baseURL.absoluteString)/a.rss\n")
        let (bus, host) = try cli.activatingBus()
        defer { bus.stop() }
        XCTAssertEqual(try cli.run(["--config", config.path, "mute", "Example News"], environment: host).status, 0)
        XCTAssertEqual(try cli.run(["--config", config.path, "mute", "other.example"], environment: host).status, 0)
        // When status is asked, then both are on its Muted line
        let page = try cli.run(["--config", config.path, "status"])
        XCTAssertTrue(page.stdoutLines.contains("Muted:         Example News, other.example"), page.stdout)
    }

    func testAnIntervalTooShortForTheBudgetSaysTheBudgetPacesTheReloads() throws {
        // Given interval 20 s with the default budget, and the default interval
        let paced = try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(server.baseURL.absoluteString)/a.rss\n[refresh]\ninterval = 20s\n")
        let page = try cli.run(["--config", paced.path, "status"])
        let json = try cli.run(["--config", paced.path, "status", "--json"])

        // Then status says the budget paces the reloads, on the page and in --json
        XCTAssertTrue(page.stdoutLines.contains { $0.hasPrefix("Pacing:        interval 20s would spend the daily budget of 48 in 16m, so the budget paces the reloads") }, page.stdout)
        XCTAssertTrue(json.stdout.contains("\"budget_paces\""), json.stdout)

        // And a config whose interval fits the budget says nothing of it
        let calm = try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(server.baseURL.absoluteString)/a.rss\n")
        let plain = try cli.run(["--config", calm.path, "status"])
        XCTAssertFalse(plain.stdout.contains("Pacing:"), plain.stdout)
    }
}
