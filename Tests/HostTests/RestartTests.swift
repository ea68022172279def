import Foundation
import TestSupport
import XCTest

/// WidgetKit's snapshot: a restart shows the cache and reloads when it is due, not at start, so
/// restarts cost no budget.
final class RestartTests: HostTestCase {
    func testRestartWithAFreshCacheMakesNoRequestAtStart() throws {
        // Given a host with an hourly interval that made its first reload, then was stopped
        try writeConfig(interval: "1h", dailyBudget: 48)
        let first = try startHost()
        try expectLine("reload ok", from: first, within: 10)
        XCTAssertEqual(requestCount, 1)
        let exit = first.send(SIGTERM) ? first.waitForExit(timeout: 5) : nil
        XCTAssertEqual(exit?.status, 0, "the first host printed:\n\(first.transcript)")

        // When it starts again and runs for 3 s
        let second = try startHost()
        try expectLine("host started", from: second, within: 5)
        Thread.sleep(forTimeInterval: 3)

        // Then there was still exactly one request
        XCTAssertEqual(requestCount, 1, "the restarted host printed:\n\(second.transcript)")
        XCTAssertTrue(second.lines(containing: "reload").isEmpty, "the restarted host reloaded:\n\(second.transcript)")
        XCTAssertTrue(second.isRunning, "the restarted host printed:\n\(second.transcript)")
    }
}
