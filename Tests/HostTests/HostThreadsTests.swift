import Foundation
import TestSupport
import XCTest

/// The resident host starts no thread pool: its reloads run in a fetch child, so after
/// a reload it has only GLib's own threads and ours, and they sleep. libdispatch's worker pool,
/// once any global-executor hop starts it, adds threads and a 1 Hz timer that never stops.
final class HostThreadsTests: HostTestCase {
    /// Thread names (comm) of `pid`, and the context switches summed over its threads.
    private func threads(_ pid: Int32) -> (names: [String], switches: Int) {
        let dir = "/proc/\(pid)/task"
        let tids = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        var names: [String] = []
        var switches = 0
        for tid in tids {
            let comm = (try? String(contentsOfFile: "\(dir)/\(tid)/comm", encoding: .utf8)) ?? ""
            names.append(comm.trimmingCharacters(in: .whitespacesAndNewlines))
            let status = (try? String(contentsOfFile: "\(dir)/\(tid)/status", encoding: .utf8)) ?? ""
            for line in status.split(separator: "\n") where line.hasSuffix("ctxt_switches") == false
                && (line.hasPrefix("voluntary_ctxt_switches") || line.hasPrefix("nonvoluntary_ctxt_switches")) {
                switches += Int(line.split(separator: "\t").last.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
            }
        }
        return (names.sorted(), switches)
    }

    func testAfterAReloadTheHostHasNoThreadPoolAndSleeps() throws {
        // ThreadSanitizer's runtime runs a background thread of its own that wakes many times a
        // second: this test measures the uninstrumented host, which every `swift test` run checks.
        if ProcessInfo.processInfo.environment["HEADLINES_TSAN"] != nil {
            throw XCTSkip("the host under ThreadSanitizer carries the sanitizer's own thread; checked in the plain test run")
        }
        // Given a host (rotation off) that has done its first reload
        try writeConfig(interval: "1h", dailyBudget: 10)
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)
        try expectLine("next reload at", from: host, within: 5)
        Thread.sleep(forTimeInterval: 1)

        // Then its threads are the main loop, GLib's worker and D-Bus threads and our notification
        // worker: nothing of libdispatch (whose workers and 1 Hz monitor a global-pool hop starts)
        let (names, before) = threads(host.pid)
        XCTAssertLessThanOrEqual(names.count, 5, "threads after a reload: \(names)")
        // (Linux keeps 15 characters of a thread name: "headlines-notify" reads "headlines-notif".)
        let known = ["headlines-host", "gmain", "gdbus", "headlines-notif", "pool-spawner"]
        XCTAssertEqual(names.filter { name in !known.contains { name.hasPrefix($0) } }, [],
                       "unexpected threads after a reload: \(names)")

        // And over 3 idle seconds it does not wake (the libdispatch monitor alone would wake 3 times)
        Thread.sleep(forTimeInterval: 3)
        let after = threads(host.pid).switches
        XCTAssertLessThanOrEqual(after - before, 1, "the idle host woke \(after - before) times in 3 s; threads: \(threads(host.pid).names)")
    }
}
