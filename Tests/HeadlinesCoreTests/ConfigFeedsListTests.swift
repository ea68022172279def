import Foundation
import XCTest
@testable import HeadlinesCore

/// `[source] feeds`: URLs separated by `;`, `,` or blanks, where a `;` or `,` inside a URL (a path
/// parameter, a list in the query) stays part of it, so every URL reads back as written.
final class ConfigFeedsListTests: XCTestCase {
    private func feeds(_ value: String) throws -> [String] {
        try Config.parse(groups: ["source": ["feeds": value]], file: "/c/headlines.conf").feeds.map(\.absoluteString)
    }

    func testASemicolonOrCommaInsideAURLIsKept() throws {
        let odd = "https://example.com/feed;jsessionid=A1/x,y.rss?tags=a,b;c"
        XCTAssertEqual(try feeds(odd), [odd])
        XCTAssertEqual(try feeds("\(odd);https://b.example/rss"), [odd, "https://b.example/rss"])
        XCTAssertEqual(try feeds("https://b.example/rss,\(odd)"), ["https://b.example/rss", odd])
        XCTAssertEqual(try feeds("https://b.example/rss ; \(odd) ;"), ["https://b.example/rss", odd])
    }

    func testEveryOldSpellingReadsAsBefore() throws {
        let two = ["https://a.example/feed", "http://b.example/rss?x=1"]
        for value in ["https://a.example/feed;http://b.example/rss?x=1", "https://a.example/feed,http://b.example/rss?x=1",
                      "https://a.example/feed http://b.example/rss?x=1", " https://a.example/feed ;; HTTP://b.example/rss?x=1; ",
                      "https://a.example/feed;,\thttp://b.example/rss?x=1,", ";https://a.example/feed\nhttp://b.example/rss?x=1"] {
            XCTAssertEqual(try feeds(value).map { $0.lowercased() }, two, value)
        }
        XCTAssertEqual(try feeds("https://a.example/rss?tags=a%2Cb"), ["https://a.example/rss?tags=a%2Cb"])
        XCTAssertThrowsError(try feeds("https://a.example/feed;ftp://b.example/x"), "another scheme starts another URL")
        XCTAssertThrowsError(try feeds("example.com/feed;https://a.example/feed"))
        XCTAssertThrowsError(try feeds(" ; , "))
    }
}
