import Foundation
import TestSupport
import XCTest

/// The host's hold on its fetch children: a child past its deadline is killed without GLib
/// complaining, and many widgets share a few children at a time. A stand-in child
/// (`HostTestCase.standIn`) plays the child.
final class FetchChildLimitsTests: HostTestCase {

    func testAChildKilledAtItsDeadlineLeavesNoGLibCritical() throws {
        try writeConfig(interval: "1h", dailyBudget: 48, timeout: "1s")
        // Hangs with its stdout open, as a child stuck past every timeout of its own would.
        let host = try standIn("exec sleep 600\n")
        let process = try BackgroundProcess(executable: host, arguments: ["--config", configFile.path],
                                            environment: cli.environment(environment))
        defer { process.kill() }
        // The deadline is the timeout plus the host's margin for the image step and the writes.
        try expectLine("killed by signal 9", from: process, within: 60)
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertTrue(process.lines(containing: "CRITICAL").isEmpty, "the host logged:\n\(process.transcript)")
        assertStopsQuickly(process, "after the killed child")
        XCTAssertTrue(process.lines(containing: "CRITICAL").isEmpty, "the host logged:\n\(process.transcript)")
    }

    func testManyWidgetsRunAFewFetchChildrenAtATimeAndEveryOneReloads() throws {
        try writeConfig(interval: "1h", dailyBudget: 48)
        let fetched = try reloadOnce()
        XCTAssertEqual(fetched.status, 0, "the reload child failed: \(fetched.stderr)")
        let widgets = 8
        var config = try String(contentsOf: configFile, encoding: .utf8)
        // Each on a source of its own, so none only mirrors another's cache.
        for i in 1...widgets { config += "\n[widget w\(i)]\nbase-url=\(server.baseURL.absoluteString)/w\(i)\n" }
        try cli.writeConfig(config, at: configFile)
        let report = bin.appendingPathComponent("report.json"), log = bin.appendingPathComponent("children.log")
        let host = try standIn("""
            echo start >> '\(log.path)'
            sleep 1
            cat '\(report.path)'
            echo end >> '\(log.path)'

            """)
        try Data(fetched.stdout.utf8).write(to: report)
        let process = try BackgroundProcess(executable: host, arguments: ["--config", configFile.path],
                                            environment: cli.environment(environment))
        defer { process.kill() }

        let lines = { ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
        let done = waitUntil(timeout: 30) { lines().filter { $0 == "end" }.count == widgets }
        XCTAssertNotNil(done, "not every widget's child ran: \(lines()); the host printed:\n\(process.transcript)")
        var running = 0, most = 0
        for line in lines() {
            running += line == "start" ? 1 : -1
            most = max(most, running)
        }
        XCTAssertLessThanOrEqual(most, 3, "\(most) fetch children ran at once: \(lines())")
        XCTAssertGreaterThanOrEqual(most, 2, "the children ran one by one: \(lines())")
        XCTAssertNotNil(waitUntil(timeout: 10) { process.lines(containing: "reload ok").count == widgets }, process.transcript)
        assertStopsQuickly(process, "after the widgets' reloads")
    }
}
