import Foundation
import TestSupport
import XCTest

/// The daily budget holds however often the host dies: every attempt is in the ledger before the
/// request goes out, and a restart reads it.
final class BudgetAcrossCrashesTests: HostTestCase {
    func testTwoCrashesAndARestartSpendExactlyTheDailyBudgetInAMinute() throws {
        // Given a 2 s interval (30 reloads a minute if nothing held it back) and a budget of 5
        try writeConfig(interval: "2s", dailyBudget: 5)
        let firstStart = Date()

        // When the host is SIGKILLed twice, each time one second after the server saw a request
        // (mid-interval: a kill between the ledger write and the request would rightly count an
        // attempt the server never sees), and the third one runs until a minute has passed
        for round in 1...2 {
            let host = try startHost()
            try expectLine("host started", from: host, within: 5)
            XCTAssertNotNil(waitForRequests(requestCount + 1, timeout: 5), "round \(round): no request")
            Thread.sleep(forTimeInterval: 1)
            let exit = host.kill()
            XCTAssertEqual(exit?.signalled, true, "round \(round): the host should have died of SIGKILL; it printed:\n\(host.transcript)")
        }
        let afterCrashes = requestCount
        let last = try startHost()
        try expectLine("host started", from: last, within: 5)
        Thread.sleep(until: firstStart.addingTimeInterval(60))

        // Then the server saw exactly 5 requests, and status counts 5 in the last 24 hours
        XCTAssertGreaterThan(afterCrashes, 1, "the crashed hosts should have reloaded before dying")
        XCTAssertEqual(requestCount, 5, "requests in the first minute across two crashes and a restart; the last host printed:\n\(last.transcript)")
        XCTAssertTrue(last.isRunning, "the last host should still run; it printed:\n\(last.transcript)")
        XCTAssertEqual(try status().reloads_last_24h, 5)
        _ = terminate(last)
        XCTAssertEqual(requestCount, 5, "stopping the host should cost no request")
        XCTAssertEqual(try status().reloads_last_24h, 5, "status with no host running")
    }
}
