import Foundation
import HeadlinesCore
@testable import HeadlinesDesktop
import XCTest

/// Runs only inside the notification suite's private session (scripts/suites/notifications.sh sets
/// HEADLINES_TEST_SESSION=1 with a D-Bus session bus, Xvfb and dunst); skipped elsewhere.
final class NotificationLifetimeTests: XCTestCase {
    func testTwoHundredPostedAndClosedLeaveNoLiveObjects() throws {
        guard ProcessInfo.processInfo.environment["HEADLINES_TEST_SESSION"] == "1" else {
            throw XCTSkip("needs the private desktop session of scripts/suites/notifications.sh")
        }
        // Given 200 headlines posted through libnotify
        let notifier = LibnotifyNotifier()
        let now = Date()
        let headlines = (1...200).map {
            Headline(id: "life-\($0)", title: "Lifetime \($0)", url: URL(string: "https://example.com/\($0)")!,
                     source: "example.com", publishedAt: now)
        }
        notifier.post(headlines, digests: [], now: now)
        XCTAssertEqual(notifier.liveObjectCount(), 200, "every posted notification stays alive until closed")

        // When the server closes every one of them
        let deadline = Date().addingTimeInterval(90)
        while notifier.liveObjectCount() > 0 && Date() < deadline {
            let close = Process()
            close.executableURL = URL(fileURLWithPath: "/usr/bin/dunstctl")
            close.arguments = ["close-all"]
            try close.run()
            close.waitUntilExit()
            Thread.sleep(forTimeInterval: 0.2)
        }

        // Then all 200 were created and all were finalized
        XCTAssertEqual(notifier.createdCount, 200)
        XCTAssertEqual(notifier.liveObjectCount(), 0, "notification objects were leaked")
    }
}
