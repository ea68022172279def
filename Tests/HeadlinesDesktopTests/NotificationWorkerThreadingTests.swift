import Foundation
import HeadlinesCore
import Synchronization
@testable import HeadlinesDesktop
import XCTest

/// The libnotify worker and the notifier are used from several threads at once (the host's loop,
/// the worker itself, tests). These tests give ThreadSanitizer (`make tsan`) something to watch.
final class NotificationWorkerThreadingTests: XCTestCase {
    func testJobsFromManyThreadsRunOneAtATimeAndAllOfThemRun() {
        let worker = NotificationWorker(name: "headlines-test-worker")
        let ran = Tally()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<5 { worker.submit { ran.add() } }
        }
        worker.sync {}
        XCTAssertEqual(ran.value, 20)
        XCTAssertEqual(ran.maxConcurrent, 1, "two jobs ran at once on the worker")
    }

    func testAHangingWorkerDropsJobsBeyondTheLimitInsteadOfQueueingForever() {
        let worker = NotificationWorker(name: "headlines-test-hang")
        let release = DispatchSemaphore(value: 0)
        XCTAssertTrue(worker.submit { release.wait() })
        var accepted = 0
        for _ in 0..<(worker.maxPending + 5) where worker.submit({}) { accepted += 1 }
        XCTAssertEqual(accepted, worker.maxPending - 1, "the hanging job counts against the limit")
        // When the server answers again, the queue drains and new jobs are taken
        release.signal()
        let deadline = Date().addingTimeInterval(5)
        var acceptedAgain = false
        while !acceptedAgain && Date() < deadline {
            acceptedAgain = worker.submit {}
            if !acceptedAgain { usleep(1000) }
        }
        XCTAssertTrue(acceptedAgain, "a worker that recovers takes jobs again")
    }

    func testTheNotifierIsSafeToUseFromManyThreads() throws {
        if ProcessInfo.processInfo.environment["HEADLINES_TEST_SESSION"] != "1" {
            // No notification server: libnotify fails fast (no bus, no X display to autolaunch one).
            setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/headlines-test-bus", 1)
            unsetenv("DISPLAY")
        }
        let notifier = LibnotifyNotifier()
        let now = Date()
        DispatchQueue.concurrentPerform(iterations: 4) { t in
            notifier.onMute = { _ in }
            notifier.onMore = { _ in }
            let h = Headline(id: "thread-\(t)", title: "Thread \(t)", url: URL(string: "https://example.com/\(t)")!,
                             source: "example.com", publishedAt: now)
            notifier.post([h], digests: [], now: now)
            _ = notifier.createdCount
            _ = notifier.onMute
        }
        _ = notifier.liveObjectCount()
        if ProcessInfo.processInfo.environment["HEADLINES_TEST_SESSION"] == "1" {
            XCTAssertEqual(notifier.createdCount, 4)
            notifier.closeAll()
        } else {
            XCTAssertEqual(notifier.liveObjectCount(), 0, "nothing can be on screen without a server")
        }
    }
}

private final class Tally: Sendable {
    private struct Counts { var running = 0, maxConcurrent = 0, count = 0 }
    private let counts = Mutex(Counts())
    var value: Int { counts.withLock { $0.count } }
    var maxConcurrent: Int { counts.withLock { $0.maxConcurrent } }
    func add() {
        counts.withLock { $0.running += 1; $0.maxConcurrent = max($0.maxConcurrent, $0.running); $0.count += 1 }
        usleep(100)
        counts.withLock { $0.running -= 1 }
    }
}
