import Foundation
import TestSupport
import XCTest

/// SIGTERM (systemd stopping the service, a session ending) stops the host at once with status 0.
final class ShutdownTests: HostTestCase {
    func testSIGTERMStopsAnIdleHostWithinASecond() throws {
        // Given a host that made its first reload and is waiting for the next one in an hour
        try writeConfig(interval: "1h", dailyBudget: 10)
        let host = try startHost()
        try expectLine("next reload at", from: host, within: 10)

        // When it gets SIGTERM, then it exits 0 within 1 s
        assertStopsQuickly(host, "idle host")
    }

    func testSIGTERMStopsAHostWhoseRequestHangsWithinASecond() throws {
        // Given a server that never answers and a 20 s client timeout
        server.route(Self.path, .neverAnswer)
        try writeConfig(interval: "1h", dailyBudget: 48, timeout: "20s")
        let host = try startHost()
        try expectLine("host started", from: host, within: 5)
        XCTAssertNotNil(waitForRequests(1, timeout: 5), "the host made no request; it printed:\n\(host.transcript)")
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertTrue(host.lines(containing: "reload").isEmpty, "the request should still hang; the host printed:\n\(host.transcript)")

        // When it gets SIGTERM in the middle of the request, then it exits 0 within 1 s
        assertStopsQuickly(host, "host with a hanging request")
    }
}
