import Foundation
import XCTest
import HeadlinesCore
import HeadlinesSources

/// `Fixtures/feeds/`, found from this file's path, and the small helpers the feed tests share.
enum FeedFixture {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // FeedTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // package root
        .appendingPathComponent("Fixtures/feeds")

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

    /// The error `body` throws, or a failure naming what it returned instead.
    static func error(_ body: () throws(FeedError) -> FeedDocument, file: StaticString = #filePath, line: UInt = #line) -> FeedError? {
        do {
            let document = try body()
            XCTFail("expected an error, got \(document)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }
}

/// An instant written as RFC 3339, for expected values.
func at(_ text: String) -> Date {
    guard let date = ISO8601.parse(text) else { preconditionFailure("bad test date \(text)") }
    return date
}

func url(_ text: String) -> URL { URL(string: text)! }
