import Foundation
import TestSupport
import XCTest

/// One host per session however many are started (waybar starts one per output): the others
/// stand by on the lock and the first to get it takes over when the host dies.
final class TakeoverTests: HostTestCase {
    func testSecondHostStandsByAndTakesOverWhenTheFirstIsKilled() throws {
        // Given two hosts started in the same session
        try writeConfig(interval: "2s", dailyBudget: 86400)
        let first = try startHost()
        try expectLine("host started", from: first, within: 5)
        let second = try startHost()

        // Then the second stands by
        try expectLine("standing by", from: second, within: 5)

        // and the server sees one request per reload, not two
        try expectLine("reload ok", from: first, within: 5)
        try waitForReloads(3, of: first)
        let firstReloads = first.lines(containing: "reload ok").count
        XCTAssertEqual(requestCount, firstReloads, "requests against the first host's reloads; the second printed:\n\(second.transcript)")
        XCTAssertTrue(second.lines(containing: "reload").isEmpty, "the standing-by host reloaded:\n\(second.transcript)")
        XCTAssertTrue(second.lines(containing: "host started").isEmpty, "both hosts started:\n\(second.transcript)")

        // When the first is killed
        let killed = Date()
        first.kill()

        // Then the second takes over within 5 s and keeps reloading
        let takeover = try expectLine("host started", from: second, within: 5)
        XCTAssertLessThanOrEqual(takeover.at.timeIntervalSince(killed), 5)
        let before = requestCount
        try expectLine("reload ok", from: second, after: takeover.index, within: 5)
        try waitForReloads(2, of: second)
        XCTAssertEqual(requestCount, before + second.lines(containing: "reload ok").count,
                       "requests against the new host's reloads; it printed:\n\(second.transcript)")
        XCTAssertTrue(second.isRunning)
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
