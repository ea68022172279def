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

    func testADiscussionPageOfItsOwnAddsCommentsAfterOpen() throws {
        let story = URL(string: "https://asahilinux.org/2026/11/gpu/")!
        let thread = URL(string: "https://news.ycombinator.com/item?id=46101234")!
        var h = Headline(id: "hn:46101234", title: "GPU", url: story, source: "asahilinux.org", publishedAt: Date(), commentsURL: thread)
        let content = NotificationContent.headline(h, now: Date(), caps: [.actions])
        XCTAssertEqual(content.actions.map(\.key), ["default", "comments", "mute"])
        XCTAssertEqual(content.actions.map(\.label), ["Open", "Comments", "Mute source"])
        // An Ask HN post links to its discussion already: one "Open" is enough.
        h.url = thread
        XCTAssertEqual(NotificationContent.headline(h, now: Date(), caps: [.actions]).actions.map(\.key), ["default", "mute"])
        h.commentsURL = nil
        XCTAssertEqual(NotificationContent.headline(h, now: Date(), caps: [.actions]).actions.map(\.key), ["default", "mute"])
    }

    func testASyncServicesHeadlineOffersMarkReadLast() {
        let h = Headline(id: "tag:google.com,2005:reader/item/0000000000000001", title: "Read me",
                         url: URL(string: "https://example.com/a")!, source: "Example", publishedAt: Date())
        let content = NotificationContent.headline(h, now: Date(), caps: [.actions], markRead: true)
        XCTAssertEqual(content.actions.map(\.key), ["default", "mute", "mark-read"])
        XCTAssertEqual(content.actions.last?.label, "Mark read")
        XCTAssertFalse(NotificationContent.headline(h, now: Date(), caps: [.actions]).actions.map(\.key).contains("mark-read"))
    }
}
