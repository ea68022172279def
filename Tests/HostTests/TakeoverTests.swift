import Foundation
import TestSupport
import XCTest

/// One host per session however many are started (waybar starts one per output): with a session
/// bus its name decides (the bus suite), without one the lock does, and either way a second host
/// exits at once, naming the first; the next one started after the first dies takes over.
final class TakeoverTests: HostTestCase {
    func testASecondHostExitsNamingTheFirstAndALaterOneTakesOver() throws {
        // Given a host running in a session
        try writeConfig(interval: "2s", dailyBudget: 30)
        let first = try startHost()
        try expectLine("host started", from: first, within: 5)

        // When a second starts, it exits at once, naming the first
        let second = try startHost()
        try expectLine("another host (pid \(first.pid))", from: second, within: 5)

        // and the server sees one request per reload of the first, none of the second
        try expectLine("reload ok", from: first, within: 5)
        try waitForReloads(3, of: first)
        XCTAssertEqual(requestCount, first.lines(containing: "reload ok").count,
                       "requests against the first host's reloads; the second printed:\n\(second.transcript)")
        XCTAssertTrue(second.lines(containing: "host started").isEmpty, "both hosts started:\n\(second.transcript)")
        XCTAssertFalse(second.isRunning, "the second host is still running:\n\(second.transcript)")

        // When the first is killed, the next host started takes over and keeps reloading
        first.kill()
        let third = try startHost()
        let takeover = try expectLine("host started", from: third, within: 5)
        let before = requestCount
        try expectLine("reload ok", from: third, after: takeover.index, within: 5)
        try waitForReloads(2, of: third)
        XCTAssertEqual(requestCount, before + third.lines(containing: "reload ok").count,
                       "requests against the new host's reloads; it printed:\n\(third.transcript)")
        XCTAssertTrue(third.isRunning)
    }

    /// Waits until `host` has logged `count` successful reloads (at most 3 s apart each).
    private func waitForReloads(_ count: Int, of host: BackgroundProcess, file: StaticString = #filePath, line: UInt = #line) throws {
        var found = host.lines(containing: "reload ok")
        while found.count < count {
            let next = try expectLine("reload ok", from: host, after: (found.last?.index ?? -1) + 1, within: 3.5, file: file, line: line)
            found.append(next)
        }
    }
}
