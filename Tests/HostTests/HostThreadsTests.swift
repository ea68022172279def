import Foundation
import TestSupport
import XCTest

/// The resident host starts no thread pool: its reloads run in a fetch child, so after
/// a reload it has only GLib's own threads and ours, and they sleep. libdispatch's worker pool,
/// once any global-executor hop starts it, adds threads and a 1 Hz timer that never stops.
final class HostThreadsTests: HostTestCase {
    private struct ThreadSample { var name: String; var switches: Int }

    /// Each thread of `pid` by id: its name (comm) and its context switches so far.
    private func threads(_ pid: Int32) -> [String: ThreadSample] {
        let dir = "/proc/\(pid)/task"
        var samples: [String: ThreadSample] = [:]
        for tid in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
            let comm = (try? String(contentsOfFile: "\(dir)/\(tid)/comm", encoding: .utf8)) ?? ""
            let status = (try? String(contentsOfFile: "\(dir)/\(tid)/status", encoding: .utf8)) ?? ""
            var switches = 0
            for line in status.split(separator: "\n")
            where line.hasPrefix("voluntary_ctxt_switches") || line.hasPrefix("nonvoluntary_ctxt_switches") {
                switches += Int(line.split(separator: "\t").last.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
            }
            samples[tid] = ThreadSample(name: comm.trimmingCharacters(in: .whitespacesAndNewlines), switches: switches)
        }
        return samples
    }

    private func total(_ samples: [String: ThreadSample]) -> Int { samples.values.reduce(0) { $0 + $1.switches } }

    /// Which threads woke between two samples, and how often: "gdbus +3, headlines-host +2".
    private func wakes(from before: [String: ThreadSample], to after: [String: ThreadSample]) -> String {
        after.sorted { $0.key < $1.key }.compactMap { tid, sample in
            let delta = sample.switches - (before[tid]?.switches ?? 0)
            return delta > 0 ? "\(sample.name) (\(tid)) +\(delta)" : nil
        }.joined(separator: ", ")
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

        // and has finished what follows it (notifying the new headlines takes D-Bus round trips,
        // slow on a loaded machine): a whole second in which no thread ran. A host that never gets
        // there fails below with what woke it.
        var settled = threads(host.pid)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 1)
            let next = threads(host.pid)
            defer { settled = next }
            if total(next) == total(settled) { break }
        }

        // Then its threads are the main loop, GLib's worker and D-Bus threads and our notification
        // worker: nothing of libdispatch (whose workers and 1 Hz monitor a global-pool hop starts)
        let names = settled.values.map(\.name).sorted()
        XCTAssertLessThanOrEqual(names.count, 5, "threads after a reload: \(names)")
        let known = ["headlines-host", "gmain", "gdbus", "notifications", "pool-spawner"]
        XCTAssertEqual(names.filter { !known.contains($0) }, [], "unexpected threads after a reload: \(names)")

        // And over 3 idle seconds it does not wake (the libdispatch monitor alone would wake 3 times)
        Thread.sleep(forTimeInterval: 3)
        let after = threads(host.pid)
        XCTAssertLessThanOrEqual(total(after) - total(settled), 1,
                                 "the idle host woke \(total(after) - total(settled)) times in 3 s: \(wakes(from: settled, to: after))")
    }
}
