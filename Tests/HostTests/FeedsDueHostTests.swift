import Foundation
import TestSupport
import XCTest

/// A real host whose fetch child says no feed is due for an hour: it starts no other child and
/// writes no ledger on its 1-second schedule, nor after a restart, and a refresh over the bus
/// still fetches every feed. A stand-in child (`HostTestCase.standIn`) notes its arguments and
/// prints a real report, with a `nextDue` added.
final class FeedsDueHostTests: HostTestCase {
    private var childLog: URL { bin.appendingPathComponent("children.log") }
    private var ledger: URL { cli.stateHome.appendingPathComponent("headlines/ledger.json") }

    /// The arguments of every child the host started, one line each.
    private var children: [String] {
        ((try? String(contentsOf: childLog, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// A copy of the host whose child answers with a real report of the loopback server, saying
    /// the first feed is next due at `nextDue`.
    private func hostWhoseChildSays(nextDue: Date) throws -> URL {
        let fetched = try reloadOnce()
        XCTAssertEqual(fetched.status, 0, "the reload child failed: \(fetched.stderr)")
        var report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(fetched.stdout.utf8)) as? [String: Any])
        report["nextDue"] = ISO8601DateFormatter().string(from: nextDue)
        let reportFile = cli.root.appendingPathComponent("report.json")
        try JSONSerialization.data(withJSONObject: report).write(to: reportFile)
        return try standIn("echo \"$*\" >> '\(childLog.path)'\ncat '\(reportFile.path)'\n")
    }

    private func startCopy(_ host: URL) throws -> BackgroundProcess {
        try BackgroundProcess(executable: host, arguments: ["--config", configFile.path], environment: cli.environment(environment))
    }

    private var ledgerBytes: Data? { try? Data(contentsOf: ledger) }

    func testNoChildBeforeTheFirstFeedIsDueEvenAfterARestartButARefreshFetchesEveryFeed() throws {
        try writeConfig(interval: "1s", dailyBudget: 86400)
        let host = try hostWhoseChildSays(nextDue: Date().addingTimeInterval(3600))
        var process = try startCopy(host)
        defer { process.kill() }
        try expectLine("when the first feed is due", from: process, within: 20)
        XCTAssertEqual(children.count, 1, "children: \(children)")
        XCTAssertFalse(children.first?.contains("--all-feeds") ?? true, "the scheduled first reload fetched every feed: \(children)")

        // Several 1-second intervals pass, once the answer's due date is saved: no child, no
        // write of the ledger.
        let saved = waitUntil(timeout: 10) { String(decoding: self.ledgerBytes ?? Data(), as: UTF8.self).contains("nextDue") }
        XCTAssertNotNil(saved, "the ledger does not keep the due date: \(String(decoding: ledgerBytes ?? Data(), as: UTF8.self))")
        let written = ledgerBytes
        Thread.sleep(forTimeInterval: 4)
        XCTAssertEqual(children.count, 1, "a child started though no feed was due; the host printed:\n\(process.transcript)")
        XCTAssertEqual(ledgerBytes, written, "the ledger was written while nothing was due")

        // A restarted host, its cache stale by the schedule, waits too.
        assertStopsQuickly(process, "before the restart")
        process = try startCopy(host)
        try expectLine("host started", from: process, within: 10)
        Thread.sleep(forTimeInterval: 3)
        XCTAssertEqual(children.count, 1, "the restarted host started a child; it printed:\n\(process.transcript)")
        XCTAssertEqual(ledgerBytes, written, "the restarted host wrote the ledger while nothing was due")

        // Someone asks: every feed.
        let mark = process.mark
        try reloadOverBus()
        try expectLine("reload ok", from: process, after: mark, within: 20)
        XCTAssertEqual(children.count, 2, "children: \(children)")
        XCTAssertTrue(children.last?.contains("--all-feeds") ?? false, "the refresh did not fetch every feed: \(children)")
        assertStopsQuickly(process, "after the refresh")
    }
}
