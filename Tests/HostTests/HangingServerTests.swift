import Foundation
import TestSupport
import XCTest

/// A server that takes the request and never answers must not freeze the host: the bar keeps
/// rotating, refresh requests and signals are handled, and SIGTERM still stops it at once.
final class HangingServerTests: HostTestCase {
    func testHostStaysResponsiveWhileARequestHangs() throws {
        // Given a cache filled by one successful fetch, after which the server never answers
        server.route(Self.path, .sequence([.json(fixture), .neverAnswer]))
        try writeConfig(interval: "2s", dailyBudget: 86400, timeout: "10s", rotate: "1s")
        let fetch = try run(["fetch"])
        XCTAssertEqual(fetch.status, 0, "the first fetch should succeed: \(fetch.stderr)")
        XCTAssertEqual(requestCount, 1)

        // When the host's reload is due and its request hangs
        let host = try startHost(verbose: true)
        try expectLine("host started", from: host, within: 5)
        guard waitForRequests(2, timeout: 5) != nil else {
            return XCTFail("the host made no request within 5 s; it printed:\n\(host.transcript)")
        }
        let hangStarted = Date()

        // Then (a) the entry on display keeps changing about every second
        var mark = host.mark
        var changes: [BackgroundProcess.Line] = []
        for _ in 1...3 {
            guard let line = host.waitForLine(containing: "entry ", after: mark, stream: .stderr, timeout: 1.6) else { break }
            changes.append(line)
            mark = line.index + 1
        }
        XCTAssertEqual(changes.count, 3,
                       "entry changes in the \(String(format: "%.1f", Date().timeIntervalSince(hangStarted))) s after the request began to hang (one expected about every second); the host printed:\n\(host.transcript)")

        // (b) `headlines status` is answered (the bus's GetStatus, on the host's loop), and says
        // the host runs
        let status = try run(["status"], timeout: 5)
        XCTAssertTrue(status.stdout.contains("running (pid"), status.stdout + status.stderr)

        // (c) Reload called on the bus directly is logged within 1 s
        mark = host.mark
        let signalled = Date()
        try reloadOverBus()
        if let line = host.waitForLine(containing: "Reload called on the bus", after: mark, timeout: 3) {
            XCTAssertLessThanOrEqual(line.at.timeIntervalSince(signalled), 1.0, "seconds from Reload to the host's log line")
        } else {
            XCTFail("the host did not log the Reload while its request hung; it printed:\n\(host.transcript)")
        }

        // All of it while the request still hung
        XCTAssertLessThan(Date().timeIntervalSince(hangStarted), 9, "the checks should finish within the 10 s client timeout")
        XCTAssertTrue(host.lines(containing: "reload failed").isEmpty && host.lines(containing: "reload ok").isEmpty,
                      "the request should still hang; the host printed:\n\(host.transcript)")
        XCTAssertEqual(requestCount, 2, "no second request while one hangs")

        // (d) SIGTERM ends it within 1 s with status 0
        assertStopsQuickly(host, "host with a hanging request")
    }
}
