import Foundation
import HeadlinesCore
import TestSupport
import XCTest

/// A crash may drop a notification but never repeat one: the seen set reaches the disk (renamed
/// into place, folder fsynced) before the notifier hears of any headline.
final class SeenSetBeforeNotificationTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private let paths = XDGPaths(environment: ["HOME": "/home/test", "XDG_STATE_HOME": "/state",
                                               "XDG_CACHE_HOME": "/cache", "XDG_RUNTIME_DIR": "/run"])
    private var log = CallLog()
    private var fileSystem = RecordingFileSystem()
    private var notifier = RecordingNotifier()
    private var warnings: [String] = []

    override func setUp() {
        log = CallLog()
        fileSystem = RecordingFileSystem(log: log)
        notifier = RecordingNotifier(log: log)
        warnings = []
    }

    private func items(_ ids: [String]) -> [Headline] {
        ids.enumerated().map { i, id in
            Headline(id: id, title: "Title \(id)", url: URL(string: "https://example.com/\(id)")!,
                     source: "example.com", publishedAt: now.addingTimeInterval(Double(i) * 60))
        }
    }

    private func notifications() -> HeadlineNotifications {
        HeadlineNotifications(notifier: notifier, paths: paths, maxPerRefresh: 3, fileSystem: fileSystem,
                              warn: { [unowned self] in warnings.append($0) })
    }

    /// Index of the call that makes the seen set durable: the folder fsync after its rename.
    private func seenSetDurable(_ calls: [RecordedCall]) -> Int? {
        guard let rename = calls.firstIndex(where: { if case let .rename(_, to) = $0 { return to == paths.seenFile }; return false })
        else { return nil }
        return calls[rename...].firstIndex(of: .syncDirectory(paths.stateDir))
    }

    private func firstPost(_ calls: [RecordedCall]) -> Int? {
        calls.firstIndex { if case .posted = $0 { return true }; return false }
    }

    func testTheSeenSetIsDurableBeforeTheFirstNotificationOfAFirstRun() throws {
        // Given no seen set yet
        // When the first reload brings three headlines
        notifications().reloaded(items(["a", "b", "c"]), now: now)
        // Then the newest is posted, and only after the seen set holding all three is on disk
        XCTAssertEqual(notifier.posts.map(\.ids), [["c"]])
        let calls = log.all
        let saved = try XCTUnwrap(seenSetDurable(calls), "the seen set was never written durably: \(calls)")
        let posted = try XCTUnwrap(firstPost(calls))
        XCTAssertLessThan(saved, posted, "a notification went out before the seen set was saved: \(calls)")
        let stored = try StateJSONDecoder.headlines().decode(SeenSet.self, from: XCTUnwrap(fileSystem.contents(paths.seenFile)))
        XCTAssertTrue(["a", "b", "c"].allSatisfy(stored.contains))
        XCTAssertEqual(warnings, [])
    }

    func testEachLaterReloadSavesTheSeenSetBeforePosting() throws {
        // Given a host that has notified once
        let host = notifications()
        host.reloaded(items(["a"]), now: now)
        let before = log.all.count
        // When a reload brings two new headlines
        host.reloaded(items(["a", "b", "c"]), now: now.addingTimeInterval(600))
        // Then this round's seen set is durable before this round's posts
        let calls = Array(log.all[before...])
        XCTAssertEqual(notifier.posts.last?.ids, ["b", "c"])
        let saved = try XCTUnwrap(seenSetDurable(calls), "no seen set write in this round: \(calls)")
        XCTAssertLessThan(saved, try XCTUnwrap(firstPost(calls)), "posted before saving: \(calls)")
    }

    func testAReloadWithNothingNewPostsNothingAndStillWritesDurably() {
        let host = notifications()
        host.reloaded(items(["a"]), now: now)
        host.reloaded(items(["a"]), now: now.addingTimeInterval(600))
        XCTAssertEqual(notifier.posts.count, 1, "the same headline is never posted twice")
        let writes = RecordingFileSystem.durableWrites(in: log.all)
        XCTAssertEqual(writes.violations, [])
    }

    func testAReloadThatBringsNothingNewLeavesTheSeenFileAsItWas() {
        // Given a host that has seen "a"
        let host = notifications()
        host.reloaded(items(["a"]), now: now)
        func seenWrites() -> Int {
            log.all.filter { if case let .rename(_, to) = $0 { return to == paths.seenFile }; return false }.count
        }
        XCTAssertEqual(seenWrites(), 1)
        // When reloads every half hour bring "a" again for most of a day
        for step in 1..<40 { host.reloaded(items(["a"]), now: now.addingTimeInterval(Double(step) * 1800)) }
        // Then the seen set is not written again
        XCTAssertEqual(seenWrites(), 1, "a reload with nothing new rewrote seen.json")
        // When a day has passed since "a" was last marked: its date moves on, so it is written
        host.reloaded(items(["a"]), now: now.addingTimeInterval(SeenSet.touchInterval + 60))
        XCTAssertEqual(seenWrites(), 2)
        // When a new headline comes: written before it is posted
        host.reloaded(items(["a", "b"]), now: now.addingTimeInterval(SeenSet.touchInterval + 120))
        XCTAssertEqual(seenWrites(), 3)
        XCTAssertEqual(notifier.posts.map(\.ids), [["a"], ["b"]])
    }

    func testAFullDiskPostsNothingSoACrashCannotRepeatIt() {
        // Given a host that has notified once
        let host = notifications()
        host.reloaded(items(["a"]), now: now)
        XCTAssertEqual(notifier.posts.map(\.ids), [["a"]])

        // When the disk is full and two reloads bring three new headlines
        fileSystem.failWrites(ENOSPC)
        host.reloaded(items(["a", "b", "c", "d"]), now: now.addingTimeInterval(60))
        host.reloaded(items(["a", "b", "c", "d"]), now: now.addingTimeInterval(120))

        // Then nothing is posted, and one sentence says why and what to do
        XCTAssertEqual(notifier.posts.map(\.ids), [["a"]], "posted while the seen set could not be saved")
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(warnings.first?.contains("free disk space") == true, "\(warnings)")

        // When the host is killed and a new one reloads, the disk still full
        notifications().reloaded(items(["a", "b", "c", "d"]), now: now.addingTimeInterval(180))
        XCTAssertEqual(notifier.posts.map(\.ids), [["a"]], "a new host repeated what the old one could not save")

        // When space is freed: the three are posted once, after being saved, and never again
        fileSystem.failWrites(nil)
        let before = log.all.count
        let restarted = notifications()
        restarted.reloaded(items(["a", "b", "c", "d"]), now: now.addingTimeInterval(240))
        XCTAssertEqual(notifier.posts.map(\.ids), [["a"], ["b", "c", "d"]])
        let calls = Array(log.all[before...])
        XCTAssertLessThan(seenSetDurable(calls) ?? .max, firstPost(calls) ?? -1, "posted before saving: \(calls)")
        notifications().reloaded(items(["a", "b", "c", "d"]), now: now.addingTimeInterval(300))
        restarted.reloaded(items(["a", "b", "c", "d"]), now: now.addingTimeInterval(300))
        XCTAssertEqual(notifier.posts.count, 2)
    }

    func testAnIdStillFetchedStaysInTheSeenSetPastItsAge() {
        // Given a headline seen once that the feed keeps for longer than the seen set's age limit
        let host = notifications()
        host.reloaded(items(["old"]), now: now)
        host.reloaded(items(["old", "new"]), now: now.addingTimeInterval(SeenSet.maxAge / 2))
        // When it is fetched again past the age limit of its first sighting
        host.reloaded(items(["old", "new"]), now: now.addingTimeInterval(SeenSet.maxAge + 60))
        notifications().reloaded(items(["old", "new"]), now: now.addingTimeInterval(SeenSet.maxAge + 120))
        // Then it is not notified again
        XCTAssertEqual(notifier.posts.map(\.ids), [["old"], ["new"]])
    }

    func testARestartRemembersWhatWasSeen() {
        // Given a host that notified "a", then stopped
        notifications().reloaded(items(["a"]), now: now)
        // When a new host (new object, same files) reloads the same headline and one new one
        notifications().reloaded(items(["a", "b"]), now: now.addingTimeInterval(60))
        // Then only the new one is posted
        XCTAssertEqual(notifier.posts.map(\.ids), [["a"], ["b"]])
    }
}
