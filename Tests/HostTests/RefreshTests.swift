import Foundation
import TestSupport
import XCTest

/// `headlines refresh`: WidgetCenter.reloadTimelines for the running host, within the budget.
final class RefreshTests: HostTestCase {
    func testRefreshReloadsAtOnceAndThenSaysWhenTheBudgetIsSpent() throws {
        // Given a host with an hourly interval that made its first reload (the cache was empty)
        try writeConfig(interval: "1h", dailyBudget: 10)
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)
        XCTAssertEqual(requestCount, 1)

        // When `headlines refresh` runs
        var mark = host.mark
        let refresh = try startBackground(["refresh"])
        // Then the server sees the second request within 1 s of the command starting (3 s under
        // ThreadSanitizer, where `refresh`, the host and its fetch child each start instrumented)
        let requestAt = firstMomentRequestCount(reached: 2, since: refresh.startedAt)
        XCTAssertNotNil(requestAt, "refresh made no request within 5 s; the host printed:\n\(host.transcript)")
        if let requestAt {
            let limit = ProcessInfo.processInfo.environment["HEADLINES_TSAN"] == nil ? 1.0 : 3.0
            XCTAssertLessThanOrEqual(requestAt, limit, "seconds from starting `headlines refresh` to the server seeing the request")
        }
        // and refresh exits 0 saying it reloaded, and the host logged why it reloaded
        let exit = refresh.waitForExit(timeout: 20)
        XCTAssertEqual(exit?.status, 0, "refresh printed:\n\(refresh.transcript)")
        XCTAssertFalse(refresh.lines(containing: "Reloaded", stream: .stdout).isEmpty, "refresh printed:\n\(refresh.transcript)")
        try expectLine("Reload called on the bus: reloading now", from: host, after: mark, within: 1)
        XCTAssertEqual(requestCount, 2)

        // Given a budget of 2, now spent (the host re-reads its config on SIGHUP)
        try writeConfig(interval: "1h", dailyBudget: 2)
        mark = host.mark
        host.send(SIGHUP)
        try expectLine("SIGHUP: configuration re-read", from: host, after: mark, within: 2)

        // When `headlines refresh` runs, and when Reload is called on the bus directly
        let deferred = try run(["refresh"])
        mark = host.mark
        try reloadOverBus()

        // Then refresh says when the next reload can happen, the host logs that it deferred,
        // and no request went out (the host logs a deferral instead of "reloading now")
        XCTAssertEqual(deferred.status, 0, "refresh with the budget spent: \(deferred.stderr)")
        XCTAssertTrue(deferred.stdout.contains("next reload can happen at "), "refresh printed: \(deferred.stdout)\(deferred.stderr)")
        try expectLine("Reload called on the bus: deferred until", from: host, after: mark, within: 1)
        XCTAssertEqual(requestCount, 2, "no request may go out once the budget is spent; the host printed:\n\(host.transcript)")
    }

    /// Seconds after `start` at which the server had seen `count` requests, polled every 10 ms
    /// for up to 5 s; nil if it never did.
    private func firstMomentRequestCount(reached count: Int, since start: Date) -> TimeInterval? {
        guard waitForRequests(count, timeout: 5) != nil else { return nil }
        return Date().timeIntervalSince(start)
    }
}
