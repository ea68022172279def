import CGLibNotify
import Foundation
import HeadlinesDesktop
import Synchronization
import XCTest

/// The loop's one-shot timers can be cancelled after they fired without GLib complaining, and
/// the host's fetch children share a few slots in the order they asked.
final class LoopTimerAndSlotsTests: XCTestCase {
    /// GLib-CRITICAL messages logged while `body` ran.
    private func criticals(during body: () -> Void) -> [String] {
        let seen = Logged()
        let box = Unmanaged.passRetained(seen).toOpaque()
        let handler = g_log_set_handler("GLib", GLogLevelFlags(rawValue: G_LOG_LEVEL_CRITICAL.rawValue), { _, _, message, data in
            let seen = Unmanaged<Logged>.fromOpaque(data!).takeUnretainedValue()
            seen.messages.withLock { $0.append(message.map { String(cString: $0) } ?? "") }
        }, box)
        body()
        g_log_remove_handler("GLib", handler)
        Unmanaged<Logged>.fromOpaque(box).release()
        return seen.messages.withLock { $0 }
    }

    private final class Logged: Sendable {
        let messages = Mutex<[String]>([])
    }

    func testATimerCancelledAfterItFiredIsLeftAlone() {
        let fired = Atomic<Int>(0)
        let logged = criticals {
            let id = MainLoop.after(0) { fired.add(1, ordering: .relaxed) }
            let deadline = Date().addingTimeInterval(5)
            while fired.load(ordering: .relaxed) == 0, Date() < deadline { g_main_context_iteration(nil, 0); usleep(1000) }
            // What a child that was killed at its deadline does when it is reaped.
            MainLoop.cancel(id)
            MainLoop.cancel(id)
        }
        XCTAssertEqual(fired.load(ordering: .relaxed), 1)
        XCTAssertEqual(logged, [], "cancelling a fired timer logged a GLib-CRITICAL")
    }

    func testACancelledTimerNeverFires() {
        let fired = Atomic<Int>(0)
        let id = MainLoop.after(0.01) { fired.add(1, ordering: .relaxed) }
        MainLoop.cancel(id)
        let deadline = Date().addingTimeInterval(0.1)
        while Date() < deadline { g_main_context_iteration(nil, 0); usleep(1000) }
        XCTAssertEqual(fired.load(ordering: .relaxed), 0)
    }

    func testChildrenStartAtMostLimitAtOnceInTheOrderTheyAsked() {
        let slots = ChildSlots(limit: 3)
        let owners = (0..<6).map { _ in NSObject() }
        var started: [Int] = []
        for (i, owner) in owners.enumerated() { slots.request(for: owner) { started.append(i); return true } }
        XCTAssertEqual(started, [0, 1, 2])
        XCTAssertEqual(slots.running, 3)
        XCTAssertEqual(slots.queued, 3)
        slots.release()
        XCTAssertEqual(started, [0, 1, 2, 3])
        // A host that stops withdraws its place; one that cannot start a child frees its slot.
        slots.withdraw(owners[4])
        slots.request(for: owners[0]) { started.append(10); return false }
        slots.request(for: owners[1]) { started.append(11); return true }
        slots.release()
        XCTAssertEqual(started, [0, 1, 2, 3, 5])
        slots.release()
        XCTAssertEqual(started, [0, 1, 2, 3, 5, 10, 11])
        XCTAssertEqual(slots.running, 3)
        XCTAssertEqual(slots.queued, 0)
    }
}
