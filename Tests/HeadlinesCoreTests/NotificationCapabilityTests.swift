import Foundation
import HeadlinesCore
import XCTest

/// What one notification says on servers with and without `actions`, `body-markup` and
/// `body-hyperlinks`: markup only where the server takes it, everything escaped for it, the link
/// in the body where nothing can be clicked, and the actions always sent.
final class NotificationCapabilityTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private let link = "https://example.com/a?b=1&c=2"
    private var headline: Headline {
        Headline(id: "x", title: "<b>Tom & Jerry</b>\nline", url: URL(string: link)!, source: "A&B",
                 publishedAt: now.addingTimeInterval(-120), summary: "x < y")
    }

    private func content(_ names: [String]) -> NotificationContent {
        NotificationContent.headline(headline, now: now, caps: NotificationCapabilities(names: names))
    }

    func testTheCapabilityNamesAreReadFromGetCapabilities() {
        XCTAssertEqual(NotificationCapabilities(names: ["body", "actions", "body-markup", "body-hyperlinks", "x-dunst-stack-tag"]),
                       [.actions, .bodyMarkup, .bodyHyperlinks])
        XCTAssertEqual(NotificationCapabilities(names: ["body", "body-markup", "icon-static"]), [.bodyMarkup], "notify-osd")
        XCTAssertEqual(NotificationCapabilities(names: []), [])
    }

    func testWithActionsAndMarkupTheBodyIsEscapedAndCarriesNoLink() {
        XCTAssertEqual(content(["actions", "body", "body-markup", "body-hyperlinks"]),
                       NotificationContent(summary: "<b>Tom & Jerry</b> line", body: "A&amp;B · 2 min ago\nx &lt; y",
                                           actions: NotificationContent.headlineActions))
    }

    func testWithActionsAndNoMarkupTheBodyIsPlainText() {
        XCTAssertEqual(content(["actions", "body"]).body, "A&B · 2 min ago\nx < y")
    }

    func testWithoutActionsOrMarkupTheLinkIsPlainTextAtTheEnd() {
        XCTAssertEqual(content(["body"]).body, "A&B · 2 min ago\nx < y\n" + link)
    }

    func testWithoutActionsWithMarkupButNoHyperlinksTheLinkIsEscapedText() {
        // notify-osd: markup, no actions, no hyperlinks. A raw `&` would blank the whole body.
        XCTAssertEqual(content(["body", "body-markup"]).body, "A&amp;B · 2 min ago\nx &lt; y\nhttps://example.com/a?b=1&amp;c=2")
    }

    func testWithoutActionsWithHyperlinksTheLinkIsAnEscapedAnchor() {
        // xfce4-notifyd in do-not-disturb: it keeps markup and hyperlinks, drops actions.
        XCTAssertEqual(content(["body", "body-markup", "body-hyperlinks"]).body,
                       "A&amp;B · 2 min ago\nx &lt; y\n<a href=\"https://example.com/a?b=1&amp;c=2\">https://example.com/a?b=1&amp;c=2</a>")
    }

    func testHyperlinksWithoutMarkupGiveNoTags() {
        // A server that lists body-hyperlinks but not body-markup would show the tags as text.
        XCTAssertEqual(content(["body", "body-hyperlinks"]).body, "A&B · 2 min ago\nx < y\n" + link)
    }

    func testAnAttributeCannotBeClosedByTheLink() {
        let h = Headline(id: "q", title: "t", url: URL(string: "https://example.com/?q=%22&x='y'")!, source: "s", publishedAt: now)
        let body = NotificationContent.headline(h, now: now, caps: [.bodyMarkup, .bodyHyperlinks]).body
        XCTAssertTrue(body.hasSuffix("<a href=\"https://example.com/?q=%22&amp;x=&apos;y&apos;\">https://example.com/?q=%22&amp;x='y'</a>"), body)
    }

    func testTheSummaryIsPlainTextOnEveryServer() {
        for names in [[], ["body-markup"], ["actions", "body-markup", "body-hyperlinks"]] {
            XCTAssertEqual(content(names).summary, "<b>Tom & Jerry</b> line", "\(names)")
        }
    }

    func testTheActionsAreSentWhateverTheCapabilitiesSay() {
        for names in [[], ["body"], ["actions"], ["body", "body-markup", "body-hyperlinks"]] {
            XCTAssertEqual(content(names).actions.map(\.key), ["default", "mute"], "\(names)")
            XCTAssertEqual(content(names).actions.first?.label, "Open", "\(names)")
            let caps = NotificationCapabilities(names: names)
            XCTAssertEqual(NotificationContent.digest(digest(3), caps: caps).actions, NotificationContent.moreActions, "\(names)")
        }
    }

    private func digest(_ count: Int, title: String = "Rates & bonds") -> SourceDigest {
        SourceDigest(source: "BBC News", count: count,
                     newest: Headline(id: "d", title: title, url: URL(string: "https://example.com/d")!, source: "BBC News", publishedAt: Date()))
    }

    func testADigestNamesItsSourceCountAndNewestTitleAndSaysHowToSeeTheRestWithoutActions() {
        XCTAssertEqual(NotificationContent.digest(digest(3), caps: [.actions, .bodyMarkup]),
                       NotificationContent(summary: "BBC News: 3 new", body: "Rates &amp; bonds, and 2 more",
                                           actions: NotificationContent.moreActions, category: .digest))
        XCTAssertEqual(NotificationContent.digest(digest(1), caps: [.actions]).body, "Rates & bonds")
        XCTAssertEqual(NotificationContent.digest(digest(2), caps: []).body, "Rates & bonds, and 1 more\nRun `headlines list` to see them.")
    }

    func testTheSummaryOfHeldHeadlinesSaysWhyAndIsInTheDigestCategory() {
        XCTAssertEqual(NotificationContent.held(HeldHeadlines(count: 4, reason: .hourlyCap), caps: [.actions]),
                       NotificationContent(summary: "4 new headlines past max-per-hour", body: "Click to pick one.",
                                           actions: NotificationContent.moreActions, category: .digest))
        XCTAssertEqual(NotificationContent.held(HeldHeadlines(count: 1, reason: .doNotDisturb), caps: []).category, .digest)
    }
}
