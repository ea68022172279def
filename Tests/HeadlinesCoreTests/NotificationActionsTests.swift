import HeadlinesCore
import XCTest

/// dunst lists the default action in its context menu under its own label, beside the others:
/// a second "Open" action showed "Open" twice. Every label appears once.
final class NotificationActionsTests: XCTestCase {
    func testEveryActionLabelIsShownOnce() {
        for actions in [NotificationContent.headlineActions, NotificationContent.moreActions] {
            XCTAssertEqual(Set(actions.map(\.label)).count, actions.count, "\(actions)")
            XCTAssertEqual(Set(actions.map(\.key)).count, actions.count, "\(actions)")
            XCTAssertEqual(actions.first?.key, "default", "the click is the default action")
        }
        XCTAssertEqual(NotificationContent.headlineActions.map(\.label), ["Open", "Mute source"])
    }
}
