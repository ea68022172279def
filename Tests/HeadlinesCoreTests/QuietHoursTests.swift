import Foundation
import HeadlinesCore
import TestSupport
import XCTest

/// `[notify] quiet-hours`: the span read on the local clock (TZ set to Berlin for the test, so a
/// DST change is at a known date), and the one summary after it.
final class QuietHoursTests: XCTestCase {
    private var savedTZ: String?

    override func setUp() {
        savedTZ = ProcessInfo.processInfo.environment["TZ"]
        setenv("TZ", "Europe/Berlin", 1)
        tzset()
    }

    override func tearDown() {
        if let savedTZ { setenv("TZ", savedTZ, 1) } else { unsetenv("TZ") }
        tzset()
    }

    private func utc(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }

    func testTheConfigValueIsTwoClockTimes() {
        XCTAssertEqual(QuietHours("22:00-07:00")?.description, "22:00-07:00")
        XCTAssertEqual(QuietHours("7:30-9:05")?.description, "07:30-09:05")
        for bad in ["22-07", "24:00-07:00", "22:00-07:60", "22:00-22:00", "22:00", "22:00-07:0", "22:00 - 07:00", "٢٢:00-07:00"] {
            XCTAssertNil(QuietHours(bad), bad)
        }
    }

    func testTheNotifyGroupTakesQuietHoursAndRefusesAMistypedSpan() throws {
        let config = try Config.parse(groups: ["notify": ["quiet-hours": "22:00-07:00"]], file: "headlines.conf")
        XCTAssertEqual(config.quietHours, QuietHours("22:00-07:00"))
        XCTAssertNil(try Config.parse(groups: ["notify": ["quiet-hours": ""]], file: "headlines.conf").quietHours)
        XCTAssertThrowsError(try Config.parse(groups: ["notify": ["quiet-hours": "22:00-7"]], file: "headlines.conf"))
    }

    func testASpanAcrossMidnightHoldsTheLateEveningAndTheEarlyMorning() throws {
        let quiet = try XCTUnwrap(QuietHours("22:00-07:00"))
        // December: Berlin is UTC+1.
        XCTAssertFalse(quiet.contains(utc(1_796_673_600)), "21:00 local")
        XCTAssertTrue(quiet.contains(utc(1_796_677_200)), "22:00 local, the start")
        XCTAssertTrue(quiet.contains(utc(1_796_691_600)), "02:00 local")
        XCTAssertFalse(quiet.contains(utc(1_796_709_900)), "07:05 local")
        XCTAssertFalse(quiet.contains(utc(1_796_709_600)), "07:00 local, the end")
    }

    func testTheSpanKeepsItsClockTimesAcrossTheSpringDSTChange() throws {
        let quiet = try XCTUnwrap(QuietHours("22:00-07:00"))
        // 22:30 CET on 28 March 2026; that night the clock skips from 02:00 to 03:00, so the span
        // ends at 07:00 CEST, 05:00 UTC: eight and a half hours later, not nine and a half.
        XCTAssertEqual(quiet.end(after: utc(1_774_733_400)), utc(1_774_760_400))
        let early = try XCTUnwrap(QuietHours("01:00-03:30"))
        XCTAssertTrue(early.contains(utc(1_774_744_200)), "01:30 CET")
        XCTAssertFalse(early.contains(utc(1_774_751_400)), "04:30 CEST")
        XCTAssertTrue(early.contains(utc(1_774_746_000)), "03:00 CEST, right after the skipped hour")
    }

    func testReloadsDuringQuietHoursPostNothingAndTheFirstAfterPostsOneSummary() throws {
        let dir = try makeTempDir(self)
        let paths = XDGPaths(environment: ["XDG_STATE_HOME": dir, "XDG_RUNTIME_DIR": dir, "HOME": dir])
        let notifier = RecordingNotifier()
        let notifications = HeadlineNotifications(notifier: notifier, paths: paths, maxPerRefresh: 3, warn: { _ in })
        notifications.quietHours = QuietHours("22:00-07:00")
        func headlines(_ ids: [String]) -> [Headline] {
            ids.map { Headline(id: $0, title: "Title \($0)", url: URL(string: "https://example.com/\($0)")!,
                               source: "example.com", publishedAt: utc(1_796_600_000)) }
        }
        notifications.reloaded(headlines(["old"]), now: utc(1_796_673_600)) // 21:00 local: the first run
        XCTAssertEqual(notifier.posts.count, 1)

        // Given two reloads during quiet hours bringing 2 and then 3 new headlines
        notifications.reloaded(headlines(["old", "a", "b"]), now: utc(1_796_680_800)) // 23:00 local
        notifications.reloaded(headlines(["old", "a", "b", "c", "d", "e"]), now: utc(1_796_691_600)) // 02:00 local

        // Then nothing was posted meanwhile, and five are held
        XCTAssertEqual(notifier.posts.count, 1, "nothing is posted during quiet hours")
        XCTAssertEqual(notifier.heldPosts, [])
        XCTAssertEqual(notifications.heldForQuietHours, 5)

        // When the first reload after them brings nothing new
        notifications.reloaded(headlines(["old", "a", "b", "c", "d", "e"]), now: utc(1_796_709_900)) // 07:05 local

        // Then one summary names the five, and it is not posted again
        XCTAssertEqual(notifier.heldPosts, [HeldHeadlines(count: 5, reason: .quietHours)])
        XCTAssertEqual(notifier.posts.count, 1)
        notifications.reloaded(headlines(["old", "a", "b", "c", "d", "e", "f"]), now: utc(1_796_713_500))
        XCTAssertEqual(notifier.heldPosts.count, 1)
        XCTAssertEqual(notifier.posts.last?.ids, ["f"])
    }

    func testWhatQuietHoursHoldTakesNothingFromTheHourlyCap() throws {
        // Given a cap of 2 an hour, and 3 new headlines at 06:30 local, during quiet hours
        let dir = try makeTempDir(self)
        let paths = XDGPaths(environment: ["XDG_STATE_HOME": dir, "XDG_RUNTIME_DIR": dir, "HOME": dir])
        let notifier = RecordingNotifier()
        let notifications = HeadlineNotifications(notifier: notifier, paths: paths, maxPerRefresh: 3, maxPerHour: 2, warn: { _ in })
        notifications.quietHours = QuietHours("22:00-07:00")
        func headlines(_ ids: [String]) -> [Headline] {
            ids.map { Headline(id: $0, title: "Title \($0)", url: URL(string: "https://example.com/\($0)")!,
                               source: "example.com", publishedAt: utc(1_796_600_000)) }
        }
        notifications.reloaded(headlines(["old"]), now: utc(1_796_673_600)) // 21:00 local: the first run
        notifications.reloaded(headlines(["old", "a", "b", "c"]), now: utc(1_796_707_800)) // 06:30 local

        // When 2 more come at 07:05, within the hour
        notifications.reloaded(headlines(["old", "a", "b", "c", "d", "e"]), now: utc(1_796_709_900))

        // Then both are posted, beside the summary of the 3: nothing was posted at 06:30 to count
        XCTAssertEqual(notifier.posts.last?.ids.sorted(), ["d", "e"])
        XCTAssertEqual(notifier.heldPosts, [HeldHeadlines(count: 3, reason: .quietHours)])
    }

    func testTheSummarySaysHowManyAndWhy() {
        let content = NotificationContent.held(HeldHeadlines(count: 5, reason: .doNotDisturb), caps: [.actions])
        XCTAssertEqual(content.summary, "5 new headlines while Do Not Disturb was on")
        XCTAssertEqual(content.actions.map(\.key), ["default"])
        XCTAssertEqual(NotificationContent.held(HeldHeadlines(count: 1, reason: .quietHours), caps: []).summary,
                       "1 new headline during quiet hours")
    }
}
