import Foundation
import TestSupport
import XCTest

/// A host whose server goes bad: it keeps running and keeps showing what it has (as stale), comes
/// back when the server does, and never says the key.
final class HostThroughFaultsTests: HostTestCase {
    /// Each way a reload can fail, with its name for the messages.
    static let faults: [(String, LoopbackHTTPServer.Behaviour)] = [
        ("HTTP 500", .json(Data(#"{"status":"not_ok","errors":[{"status":500,"code":"ER0183","message":"Internal server error"}]}"#.utf8), status: 500)),
        ("a reset mid-body", .resetMidBody(status: 200, body: FixturePaths.data("apitube/top-headlines-fl.json"))),
        ("an HTML page", .respond(status: 200, headers: ["Content-Type": "text/html"],
                                  body: Data("<!DOCTYPE html><html><body>Please log in</body></html>".utf8))),
        ("silence", .neverAnswer),
    ]

    /// The last line a waybar copy printed after `mark` whose class list holds `wanted`, within 10 s.
    private func barLine(_ bar: BackgroundProcess, after mark: Int, withClass wanted: String) -> (text: String, classes: [String])? {
        var found: (String, [String])?
        _ = waitUntil(timeout: 10) {
            for line in bar.lines.dropFirst(mark).reversed() where line.stream == .stdout {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.text.utf8)) as? [String: Any],
                      let text = object["text"] as? String else { continue }
                let classes = object["class"] as? [String] ?? [object["class"] as? String].compactMap { $0 }
                if classes.contains(wanted) { found = (text, classes); return true }
            }
            return false
        }
        return found
    }

    func testTheBarShowsTheCachedHeadlinesAsStaleThroughEachFaultAndFreshAgainAfter() throws {
        // Given a host that reloaded once, and a waybar copy showing a fresh headline
        try writeConfig(interval: "1h", dailyBudget: 86400, timeout: "1s", rotate: "1s")
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)
        let (_, list) = try listedAfterReload()
        let items = (try? JSONSerialization.jsonObject(with: Data(list.stdout.utf8))) as? [[String: Any]] ?? []
        let titles = items.compactMap { $0["title"] as? String }
        XCTAssertFalse(titles.isEmpty, "list --json stayed empty")
        let bar = try startBackground(["waybar"])
        XCTAssertNotNil(barLine(bar, after: 0, withClass: "fresh"), "no fresh line from the waybar copy:\n\(bar.transcript)")

        for (name, fault) in Self.faults {
            // When the server goes bad and a reload is asked for
            server.route(Self.path, fault)
            let mark = host.mark, barMark = bar.mark
            try reloadOverBus()
            try expectLine("reload failed", from: host, after: mark, within: 10)

            // Then the host runs on and the bar keeps a cached headline, marked stale
            XCTAssertTrue(host.isRunning, "the host died after \(name):\n\(host.transcript)")
            let line = barLine(bar, after: barMark, withClass: "stale")
            XCTAssertNotNil(line, "no stale line after \(name):\n\(bar.transcript)")
            if let line { XCTAssertTrue(titles.contains(line.text), "after \(name) the bar shows \(line.text), not a cached headline") }
        }

        // When the server is good again, the next reload makes the bar fresh
        server.route(Self.path, .json(fixture))
        let mark = host.mark, barMark = bar.mark
        try reloadOverBus()
        try expectLine("reload ok", from: host, after: mark, within: 10)
        XCTAssertNotNil(barLine(bar, after: barMark, withClass: "fresh"), "the bar did not come back to fresh:\n\(bar.transcript)")
        XCTAssertTrue(try status().host_running)
        for text in [host.transcript, bar.transcript] { XCTAssertFalse(text.contains(Self.apiKey), "the key was printed:\n\(text)") }
    }

    func testFortyFailedReloadsLeaveTheHostsMemoryFlat() throws {
        // Given a host whose server fails in four ways in turn
        try writeConfig(interval: "1h", dailyBudget: 86400, timeout: "2s")
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)
        let failing = Self.faults.dropLast()
        func failReloads(_ count: Int) throws {
            for k in 0..<count {
                server.route(Self.path, failing[failing.startIndex + k % failing.count].1)
                let mark = host.mark
                try reloadOverBus()
                try expectLine("reload failed", from: host, after: mark, within: 10)
            }
        }
        func residentKB() -> Int {
            let text = (try? String(contentsOfFile: "/proc/\(host.pid)/status", encoding: .utf8)) ?? ""
            let line = text.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        // Warmed up first: the first failures of each kind fill caches that then stay
        try failReloads(9)
        let before = residentKB()

        // When 40 more reloads fail
        try failReloads(40)

        // Then its resident memory grew by less than 5 MB
        let after = residentKB()
        XCTAssertGreaterThan(before, 0)
        XCTAssertLessThan(after - before, 5 * 1024, "VmRSS \(before) kB -> \(after) kB over 40 failed reloads")
    }
}
