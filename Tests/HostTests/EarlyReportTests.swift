import Foundation
import TestSupport
import XCTest

/// The host shows a fetch child's report as soon as the child's stdout ends with one, not when
/// the child has exited, and still runs one child at a time.
/// A stand-in `headlines-reload` beside a copy of the host prints a real report, closes its stdout,
/// and takes 3 s more to exit, as a child writing its cache on a slow disk would.
final class EarlyReportTests: HostTestCase {
    func testTheBarLineComesWithTheReportAndTheNextChildWaitsForTheExit() throws {
        try writeConfig(interval: "1h", dailyBudget: 48)
        let fetched = try reloadOnce()
        XCTAssertEqual(fetched.status, 0, "the reload child failed: \(fetched.stderr)")
        // Without the cache that fetch wrote, the host reloads as it starts.
        try FileManager.default.removeItem(at: cli.cacheHome)
        let bin = cli.root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try Data(fetched.stdout.utf8).write(to: bin.appendingPathComponent("report.json"))
        let log = bin.appendingPathComponent("children.log")
        let child = bin.appendingPathComponent("headlines-reload")
        try """
            #!/bin/sh
            echo start >> '\(log.path)'
            cat '\(bin.appendingPathComponent("report.json").path)'
            exec >/dev/null
            sleep 3
            echo end >> '\(log.path)'

            """.write(to: child, atomically: true, encoding: .utf8)
        chmod(child.path, 0o755)
        // The host finds its fetch child beside its own executable (/proc/self/exe): a copy.
        let host = bin.appendingPathComponent("headlines-host")
        try FileManager.default.copyItem(at: cli.executable.deletingLastPathComponent().appendingPathComponent("headlines-host"),
                                         to: host)
        let process = try BackgroundProcess(executable: host, arguments: ["--config", configFile.path],
                                            environment: cli.environment(environment))
        defer { process.kill() }

        let waybar = cli.root.appendingPathComponent("runtime/headlines/bar/waybar")
        let children = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        let shown = waitUntil(timeout: 10) { ((try? String(contentsOf: waybar, encoding: .utf8)) ?? "").contains("\"fresh\"") }
        XCTAssertNotNil(shown, "the bar never showed the report; the host printed:\n\(process.transcript)")
        XCTAssertEqual(children(), "start\n", "the bar line waited for the fetch child's exit")

        // A refresh now must wait for that child to exit: one child at a time.
        try reloadOverBus()
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(children().components(separatedBy: "start").count - 1, 1, "a second child started beside the first")
        let second = waitUntil(timeout: 10) { children().hasSuffix("end\nstart\n") || children().components(separatedBy: "start").count - 1 == 2 }
        XCTAssertNotNil(second, "the refresh asked for during the first child never ran; children: \(children())")
        XCTAssertTrue(children().hasPrefix("start\nend\nstart\n"), "the second child did not follow the first's exit: \(children())")
        assertStopsQuickly(process, "after the two reloads")
    }

    /// The cache the host's own fetch child writes after its report is not read back (the report
    /// already said what it holds); a write once the child has exited is another process's, and
    /// is adopted. The stand-in child writes a cache with another fetch time, so a read-back would
    /// show as an adoption.
    func testTheCacheItsOwnChildWritesIsNotReadBackAndALaterOneIs() throws {
        try writeConfig(interval: "1h", dailyBudget: 48)
        let fetched = try reloadOnce()
        XCTAssertEqual(fetched.status, 0, "the reload child failed: \(fetched.stderr)")
        let written = try Data(contentsOf: cli.cacheFile)
        try FileManager.default.removeItem(at: cli.cacheHome)
        let bin = cli.root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try Data(fetched.stdout.utf8).write(to: bin.appendingPathComponent("report.json"))
        func cache(fetchedAt: String) throws -> Data {
            var object = try JSONSerialization.jsonObject(with: written) as! [String: Any]
            object["fetchedAt"] = fetchedAt
            return try JSONSerialization.data(withJSONObject: object)
        }
        try cache(fetchedAt: "2030-01-01T00:00:00Z").write(to: bin.appendingPathComponent("cache.json"))
        let folder = cli.cacheFile.deletingLastPathComponent().path
        let child = bin.appendingPathComponent("headlines-reload")
        try """
            #!/bin/sh
            cat '\(bin.appendingPathComponent("report.json").path)'
            exec >/dev/null
            mkdir -p '\(folder)'
            cp '\(bin.appendingPathComponent("cache.json").path)' '\(folder)/.headlines.json.tmp-child'
            mv '\(folder)/.headlines.json.tmp-child' '\(cli.cacheFile.path)'
            sleep 1
            echo exited > '\(bin.appendingPathComponent("exited").path)'

            """.write(to: child, atomically: true, encoding: .utf8)
        chmod(child.path, 0o755)
        let host = bin.appendingPathComponent("headlines-host")
        try FileManager.default.copyItem(at: cli.executable.deletingLastPathComponent().appendingPathComponent("headlines-host"),
                                         to: host)
        let process = try BackgroundProcess(executable: host, arguments: ["--config", configFile.path],
                                            environment: cli.environment(environment))
        defer { process.kill() }
        try expectLine("reload ok", from: process, within: 10)
        XCTAssertNotNil(waitUntil(timeout: 10) { FileManager.default.fileExists(atPath: bin.appendingPathComponent("exited").path) })
        // The exit reaped and handled (the reload's slot given back) before the next write.
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertFalse(process.transcript.contains("refreshed by another process"),
                       "the host read back its own child's cache:\n\(process.transcript)")
        let mark = process.mark
        let temporary = folder + "/.headlines.json.tmp-other"
        try cache(fetchedAt: "2030-01-02T00:00:00Z").write(to: URL(fileURLWithPath: temporary))
        XCTAssertEqual(rename(temporary, cli.cacheFile.path), 0)
        try expectLine("the cache was refreshed by another process", from: process, after: mark, within: 5)
        assertStopsQuickly(process, "after the adoption")
    }
}
