import Foundation
import XCTest
import HeadlinesCore
import HeadlinesSources

/// One story posted to three subreddits of one listing is one headline, and it keeps one id
/// whatever order Reddit lists the copies in: the seen set is keyed by id, so a new order must not
/// make the story new again.
final class RedditCrosspostTests: XCTestCase {
    private func listing(_ copies: [(id: String, subreddit: String)]) -> Data {
        let children = copies.map { copy in
            #"{"kind":"t3","data":{"name":"\#(copy.id)","title":"Same story","url":"https://news.example.com/story","#
                + #""permalink":"/r/\#(copy.subreddit)/comments/\#(copy.id)/same_story/","subreddit":"\#(copy.subreddit)","created_utc":1800000000}}"#
        }
        return Data(#"{"kind":"Listing","data":{"children":[\#(children.joined(separator: ","))]}}"#.utf8)
    }

    func testThreeCopiesReorderedKeepOneIdAndNotifyOnce() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_100)
        let first = [("t3_bbb", "news"), ("t3_aaa", "worldnews"), ("t3_ccc", "europe")]
        let orders = [first, [first[2], first[0], first[1]], [first[1], first[2], first[0]]]
        var seen = SeenSet()
        var notified = 0
        for order in orders {
            let headlines = try RedditProvider.decode(HTTPResponse(status: 200, body: listing(order)), now: now)
            XCTAssertEqual(headlines.map(\.id), ["t3_aaa"], "\(order)")
            for headline in headlines where !seen.contains(headline.id) {
                notified += 1
                seen.insert(headline.id, at: now)
            }
        }
        XCTAssertEqual(notified, 1)
    }
}
