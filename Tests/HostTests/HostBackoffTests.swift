import Foundation
import TestSupport
import XCTest

/// The delays a real host plans after failures, as `headlines status --json` reports them: doubling
/// from a minute, and a 429's Retry-After before anything else.
final class HostBackoffTests: HostTestCase {
    /// Seconds from the last reload to the next one planned, from `status --json`.
    private func plannedDelay() throws -> Int? {
        let result = try run(["status", "--json"])
        guard let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
              let last = (object["last_reload"] as? String).flatMap(date), let next = (object["next_reload"] as? String).flatMap(date)
        else { XCTFail("no last_reload or next_reload in: \(result.stdout)\(result.stderr)"); return nil }
        return Int(next.timeIntervalSince(last).rounded())
    }

    private func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }

    func testRepeatedFailuresDoubleTheDelayFromAMinuteUpToTheInterval() throws {
        // Given a host on a 10 minute interval whose server fails from the start
        server.route(Self.path, .json(Data("{}".utf8), status: 500))
        try writeConfig(interval: "10m", dailyBudget: 500)
        let host = try startHost()

        // When it fails four times in a row (the first at start, then asked on the bus)
        var delays: [Int] = []
        for k in 0..<4 {
            let mark = host.mark
            if k > 0 { try reloadOverBus() }
            try expectLine("next reload at", from: host, after: mark, within: 10)
            delays.append(try plannedDelay() ?? -1)
        }

        // Then the next reload is planned 1, 2, 4 and 8 minutes out (the interval caps the next)
        XCTAssertEqual(delays, [60, 120, 240, 480], "the host printed:\n\(host.transcript)")
        XCTAssertTrue(host.isRunning)
    }

    func testA429sRetryAfterPushesTheNextReloadOutAndDefersARefresh() throws {
        // Given a host on a 2 s interval whose server answers 429 with Retry-After: 120
        server.route(Self.path, .respond(status: 429, headers: ["Retry-After": "120", "Content-Type": "application/json"], body: Data("""
            {"status":"not_ok","errors":[{"status":429,"code":"ER0203","message":"Too many requests"}]}
            """.utf8)))
        try writeConfig(interval: "2s", dailyBudget: 86400)
        let host = try startHost()
        try expectLine("next reload at", from: host, within: 10)

        // Then the next reload is planned two minutes out, not two seconds
        let delay = try XCTUnwrap(try plannedDelay())
        XCTAssertTrue((119...121).contains(delay), "next reload \(delay) s after the 429")

        // And a refresh asked for now is deferred, with no request
        let mark = host.mark
        try reloadOverBus()
        try expectLine("deferred until", from: host, after: mark, within: 5)
        XCTAssertEqual(requestCount, 1, "a request went out inside the Retry-After; the host printed:\n\(host.transcript)")
    }
}
