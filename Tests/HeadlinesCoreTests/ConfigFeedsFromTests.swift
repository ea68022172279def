import Foundation
import XCTest
@testable import HeadlinesCore

/// `[source] feeds-from`: only its shape is checked by the config; the file is read elsewhere.
final class ConfigFeedsFromTests: XCTestCase {
    let file = "/home/u/.config/headlines/headlines.conf"

    private func parse(_ source: [String: String]) throws -> Config {
        try Config.parse(groups: ["source": source], file: file)
    }

    func testPathAndTagsAreStoredAndTheDefaultFeedsAreNotMixedIn() throws {
        let config = try parse(["provider": "feeds", "feeds-from": " ~/.newsboat/urls#tech, world "])
        XCTAssertEqual(config.feedsFrom, FeedsFrom(path: "~/.newsboat/urls", tags: ["tech", "world"]))
        XCTAssertEqual(config.feeds, [])
        XCTAssertEqual(try parse(["feeds-from": "/tmp/subs.opml"]).feedsFrom, FeedsFrom(path: "/tmp/subs.opml"))
    }

    func testFeedsAndFeedsFromTogetherKeepBoth() throws {
        let config = try parse(["feeds": "https://a.example/feed", "feeds-from": "$HOME/subs.opml"])
        XCTAssertEqual(config.feeds, [URL(string: "https://a.example/feed")!])
        XCTAssertEqual(config.feedsFrom?.path, "$HOME/subs.opml")
    }

    func testAnEmptyPathOrAnEmptyTagIsRefusedNamingTheKey() {
        for bad in ["", "#tech", "~/urls#", "~/urls#,"] {
            XCTAssertThrowsError(try parse(["feeds-from": bad]), bad) { error in
                XCTAssertTrue("\(error)".contains("[source] feeds-from = '"), "\(error)")
                XCTAssertTrue("\(error)".contains("OPML or newsboat urls file"), "\(error)")
            }
        }
    }

    func testTildeAndHomeExpandOnlyAtTheStart() {
        XCTAssertEqual(FeedsFrom(path: "~/.newsboat/urls").expandedPath(home: "/home/u"), "/home/u/.newsboat/urls")
        XCTAssertEqual(FeedsFrom(path: "$HOME/a").expandedPath(home: "/home/u"), "/home/u/a")
        XCTAssertEqual(FeedsFrom(path: "${HOME}/a").expandedPath(home: "/home/u"), "/home/u/a")
        XCTAssertEqual(FeedsFrom(path: "~bob/a").expandedPath(home: "/home/u"), "~bob/a")
        XCTAssertEqual(FeedsFrom(path: "/x/~/a").expandedPath(home: "/home/u"), "/x/~/a")
        XCTAssertEqual(FeedsFrom(path: "~/a").expandedPath(home: nil), "~/a")
    }

    func testTheLastHashStartsTheTags() {
        XCTAssertEqual(FeedsFrom.parse("/a#b/urls#x"), FeedsFrom(path: "/a#b/urls", tags: ["x"]))
    }

    func testSourceIdentityChangesWithFeedsFromAndStaysTheSameWithout() throws {
        // A config without feeds-from keeps the digest its ledger already holds
        let plain = try parse(["feeds": "https://a.example/feed"])
        var same = Config()
        same.feeds = [URL(string: "https://a.example/feed")!]
        XCTAssertEqual(plain.sourceIdentity, same.sourceIdentity)
        let tagged = try parse(["feeds": "https://a.example/feed", "feeds-from": "~/urls#tech"])
        let other = try parse(["feeds": "https://a.example/feed", "feeds-from": "~/urls#world"])
        XCTAssertNotEqual(tagged.sourceIdentity, plain.sourceIdentity)
        XCTAssertNotEqual(tagged.sourceIdentity, other.sourceIdentity)
    }
}
