import Foundation
import TestSupport
import XCTest

/// `headlines status --config OTHER` while a host runs with this test's config: the page reports
/// this config's provider and says the host was started with another one, instead of passing the
/// host's provider off as ours.
final class StatusWithAnotherConfigTests: HostTestCase {
    func testStatusSaysTheHostRunsAnotherConfig() throws {
        // Given a host running APITube
        try writeConfig(interval: "30m", dailyBudget: 10)
        let host = try startHost()
        XCTAssertNotNil(waitForRequests(1, timeout: 15), host.transcript)
        struct Report: Decodable { var provider: String; var host_provider: String?; var host_has_other_config: Bool; var config_file: String }
        let other = try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(server.baseURL.absoluteString)/none.rss\n",
                                        at: cli.root.appendingPathComponent("other.conf"))
        var report: Report?
        waitUntil(timeout: 10, poll: 0.1) {
            let r = try? cli.run(["--config", other.path, "status", "--json"], environment: environment)
            report = r.flatMap { try? JSONDecoder().decode(Report.self, from: Data($0.stdout.utf8)) }
            return report?.host_provider != nil
        }
        // When status is asked with the other config
        let page = try cli.run(["--config", other.path, "status"], environment: environment)

        // Then it is this config's provider, and the host line says the host's is another
        XCTAssertEqual(report?.provider, "Feeds")
        XCTAssertEqual(report?.host_provider, "APITube")
        XCTAssertEqual(report?.host_has_other_config, true)
        XCTAssertEqual(report?.config_file, other.path)
        XCTAssertTrue(page.stdoutLines.contains("Provider:      Feeds"), page.stdout)
        let hostLine = page.stdoutLines.first { $0.hasPrefix("Host:") } ?? ""
        XCTAssertTrue(hostLine.contains("running (pid") && hostLine.contains("another config (provider APITube)"), page.stdout)

        // And with the host's own config, nothing is said about another config
        let own = try run(["status"])
        XCTAssertFalse(own.stdout.contains("another config"), own.stdout)
        assertStopsQuickly(host, "after status")
    }
}

/// `refresh` with a host whose reload fails: the host's sentence ends the line, with one period
/// ("Reloaded by the host (pid N): The feed ... timeout..").
final class RefreshFailureLineTests: HostTestCase {
    func testARefreshThatFailsEndsItsLineWithOnePeriod() throws {
        server.route(Self.path, .json(Data("{}".utf8), status: 503))
        try writeConfig(interval: "30m", dailyBudget: 10)
        let host = try startHost()
        XCTAssertNotNil(waitForRequests(1, timeout: 15), host.transcript)
        let refresh = try run(["refresh"])
        let line = refresh.stdoutLines.first { $0.hasPrefix("Reloaded by the host") } ?? ""
        XCTAssertTrue(line.contains("had a server error (HTTP 503)"), refresh.stdout + refresh.stderr)
        XCTAssertTrue(line.hasSuffix("try again later."), line)
        XCTAssertFalse(line.contains(".."), line)
        assertStopsQuickly(host, "after refresh")
    }
}
