import Foundation
import TestSupport
import XCTest
@testable import HeadlinesCore

/// Every input in `Fixtures/fuzz-regressions/` (findings and the nastiest inputs of the libFuzzer
/// runs, see scripts/fuzz.sh) through all four parsers: APITube, NewsAPI, feeds and the config.
/// A thrown error is a clean outcome; a crash kills the test run, and an input that takes more
/// than a few seconds fails. The GKeyFile reading of the config is replayed by scripts/fuzz.sh
/// under AddressSanitizer (its finding is a leak, which only a sanitizer sees).
final class FuzzRegressionTests: XCTestCase {
    static var folder: URL { FixturePaths.url("fuzz-regressions") }

    /// The inputs: every file in the folder but its README.
    static func inputs() throws -> [URL] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        return names.filter { !$0.hasPrefix(".") && !$0.hasPrefix("README") }.sorted()
            .map { folder.appendingPathComponent($0) }
    }

    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    func testEveryInputGoesThroughEveryParserWithoutCrashing() throws {
        // Given the saved inputs
        let inputs = try Self.inputs()
        if inputs.isEmpty { throw XCTSkip("Fixtures/fuzz-regressions/ holds no inputs") }

        for url in inputs {
            let data = try Data(contentsOf: url)
            let name = url.lastPathComponent
            let started = Date()

            // When each goes through the four parsers, as a 200 and as an error status
            for status in [200, 429, 503] {
                let response = HTTPResponse(status: status, headers: ["Retry-After": "120"], body: data)
                do { _ = try APITubeProvider.decode(response, now: Self.now) } catch { XCTAssertFalse(error.message(provider: "APITube").isEmpty, name) }
                do { _ = try NewsAPIProvider.decode(response, now: Self.now) } catch { XCTAssertFalse(error.message(provider: "NewsAPI").isEmpty, name) }
            }
            for base in [URL(string: "https://feeds.example.com/news/rss.xml"), nil] {
                do {
                    let document = try FeedParser.parse(data, baseURL: base)
                    _ = document.items.compactMap { FeedProvider.headline($0, source: "fuzz", now: Self.now) }
                } catch {
                    XCTAssertFalse(error.reason.isEmpty, name)
                }
            }
            do {
                let config = try Config.parse(groups: Self.groups(String(decoding: data, as: UTF8.self)), file: name)
                _ = Duration.format(config.interval)
            } catch {
                XCTAssertTrue(error.message.hasPrefix(name), "\(name): \(error.message)")
            }

            // Then nothing crashed, and nothing took long (libFuzzer's limit is 5 s under ASan)
            XCTAssertLessThan(Date().timeIntervalSince(started), 10, "\(name) is slow to parse")
        }
    }

    /// The config target's reading of a key file into groups (Tests/Fuzz/config/main.swift):
    /// `[name]` opens a group, `key = value` adds to it, `#` lines are comments.
    static func groups(_ text: String) -> [String: [String: String]] {
        var groups: [String: [String: String]] = [:]
        var current: String?
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#") { continue }
            if trimmed.hasPrefix("["), trimmed.hasSuffix("]"), trimmed.count >= 2 {
                let name = String(trimmed.dropFirst().dropLast())
                current = name
                groups[name, default: [:]] = groups[name] ?? [:]
            } else if let eq = trimmed.firstIndex(of: "="), let group = current {
                let key = trimmed[..<eq].trimmingCharacters(in: .whitespaces)
                groups[group, default: [:]][key] = String(trimmed[trimmed.index(after: eq)...])
            }
        }
        return groups
    }
}
