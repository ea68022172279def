import Foundation
import XCTest
import HeadlinesCore
import HeadlinesSources
import TestSupport

/// `Fixtures/feeds/` and the small helpers the feed tests share.
enum FeedFixture {
    static let root = FixturePaths.url("feeds")

    /// The URL the fixtures pretend to have been fetched from, for relative links.
    static let feedURL = URL(string: "https://feeds.example.com/path/feed.xml")!

    static func data(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws(FeedError) -> Data {
        let url = root.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            XCTFail("fixture \(url.path) is missing", file: file, line: line)
            throw FeedError(reason: "missing fixture")
        }
        return data
    }

    static func parse(_ name: String) throws(FeedError) -> FeedDocument {
        try FeedParser.parse(data(name), baseURL: feedURL)
    }
}
