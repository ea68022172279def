import Foundation
import HeadlinesCore
import HeadlinesSources
@testable import HeadlinesDesktop
import Synchronization
import XCTest
import TestSupport

/// 500 reload-and-notify cycles through the real pieces (decoder, cache, ledger, seen set,
/// libnotify to a real dunst), checking that notification objects are released (the live count
/// returns to zero every hundred cycles). Run by scripts/hostile/40-memory.sh, under valgrind, inside the private
/// desktop session (HEADLINES_TEST_SESSION=1); skipped elsewhere.
final class MemoryCycleTests: XCTestCase {
    /// An APITube stand-in with one more headline at every request.
    final class GrowingTransport: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func get(_ request: HTTPRequest) async throws -> HTTPResponse {
            let k = lock.withLock { n += 1; return n }
            let items = (max(1, k - 9)...k).reversed().map { i in
                "{\"id\":\(i),\"title\":\"Cycle \(i) & <more>\",\"href\":\"https://example.com/\(i)\",\"published_at\":\"2026-01-01T00:00:\(String(format: "%02d", i % 60)).000Z\",\"source\":{\"domain\":\"example.com\"},\"image\":\"\"}"
            }
            return HTTPResponse(status: 200, body: Data("{\"status\":\"ok\",\"results\":[\(items.joined(separator: ","))]}".utf8))
        }
    }

    func testFiveHundredReloadAndNotifyCyclesLeaveNothingBehind() async throws {
        guard ProcessInfo.processInfo.environment["HEADLINES_TEST_SESSION"] == "1" else {
            throw XCTSkip("needs the private desktop session of scripts/hostile/40-memory.sh")
        }
        let cycles = Int(ProcessInfo.processInfo.environment["CYCLES"] ?? "500") ?? 500
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mem-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let paths = XDGPaths(environment: ["HOME": dir, "XDG_RUNTIME_DIR": dir + "/run"])
        let provider = APITubeProvider(options: .init(baseURL: URL(string: "https://memory.invalid")!), apiKey: "k",
                                       transport: GrowingTransport())
        let refresher = Refresher(provider: provider, cache: HeadlineCache(path: paths.cacheFile),
                                  statusStore: RefreshStatusStore(path: paths.statusFile))
        let timeline = HeadlinesTimelineProvider(refresher: refresher, interval: 60, rotate: 0, warn: { _ in })
        let start = Date()
        let notifier = LibnotifyNotifier()
        // A cycle a minute: the hourly cap at its highest, so that every cycle posts.
        let warnings = Mutex<[String]>([])
        let notifications = HeadlineNotifications(notifier: notifier, paths: paths, maxPerRefresh: 3, maxPerHour: 500,
                                                  warn: { message in warnings.withLock { $0.append(message) } })
        var census: [Int] = []
        for cycle in 1...cycles {
            // A manual clock a minute per cycle keeps 500 reloads inside the daily budget.
            let now = start.addingTimeInterval(Double(cycle) * 60)
            let clocks = HostTime(wall: now, monotonic: now.timeIntervalSince1970, boot: "memory-test")
            let result = await timeline.timeline(now: clocks.wall, consecutiveFailures: 0)
            let fetched = try XCTUnwrap(result.fetched, "cycle \(cycle) did not reload")
            notifications.reloaded(fetched, now: now)
            // A host reloads at most once a minute, so its notification worker is idle again long
            // before the next batch; without this wait a slow run (valgrind on a busy machine)
            // queues more batches than the worker keeps for a server that does not answer, and
            // the worker drops the rest, as it should.
            notifier.waitUntilPosted()
            if cycle % 100 == 0 {
                // Live NotifyNotification objects, counted by finalization (g_object_weak_ref):
                // Debian's GLib is built without GOBJECT_DEBUG=instance-count support.
                XCTAssertGreaterThan(notifier.liveObjectCount(), 0, "the last hundred are on screen before closing")
                closeAll(notifier)
                census.append(notifier.liveObjectCount())
            }
        }
        XCTAssertGreaterThanOrEqual(notifier.createdCount, cycles,
                                    "one notification per cycle at least; warnings: \(warnings.withLock { $0 })")
        XCTAssertEqual(census, Array(repeating: 0, count: cycles / 100), "live notification objects after closing, each hundredth cycle")
        print("memory-cycles: \(cycles) cycles, \(notifier.createdCount) notifications, live notification objects after each hundred closed: \(census)")
    }

    /// Closes them through the server (CloseNotification), then waits for the `closed` signals.
    private func closeAll(_ notifier: LibnotifyNotifier) {
        let deadline = Date().addingTimeInterval(60)
        while notifier.liveObjectCount() > 0 && Date() < deadline {
            notifier.closeAll()
            Thread.sleep(forTimeInterval: 0.2)
        }
    }
}
