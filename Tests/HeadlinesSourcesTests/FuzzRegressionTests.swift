import Foundation
import TestSupport
import XCTest
@testable import HeadlinesCore
@testable import HeadlinesSources

/// Every input in `Fixtures/fuzz-regressions/` (findings and the nastiest inputs of the libFuzzer
/// runs, see scripts/fuzz.sh) through all four parsers: APITube, NewsAPI, feeds and the config.
/// A thrown error is a clean outcome; a crash or an input that takes more than a few seconds
/// fails. The feed parser runs in a child process (`headlines-feedcheck`, which is
/// `FeedParser.parse` and nothing else): it hands the bytes to libxml2 (through FeedXML), where
/// a crash is a signal that would otherwise take every other test in this bundle down with it.
/// The GKeyFile reading of the config is replayed by scripts/fuzz.sh under AddressSanitizer (its
/// finding is a leak, which only a sanitizer sees).
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
            try assertFeedParserSurvives(url)
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

    /// `headlines-feedcheck FILE` must exit (0 for a feed, 1 for a clean error), not die of a signal.
    func assertFeedParserSurvives(_ input: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let process = Process()
        process.executableURL = try Self.feedcheck()
        process.arguments = [input.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            XCTFail("FeedParser.parse hangs on \(input.lastPathComponent) (over 30 s)", file: file, line: line)
            return
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationReason, .exit,
                       "FeedParser.parse crashed (signal \(process.terminationStatus)) on Fixtures/fuzz-regressions/\(input.lastPathComponent)",
                       file: file, line: line)
        if process.terminationReason == .exit {
            XCTAssertTrue([0, 1].contains(process.terminationStatus), "\(input.lastPathComponent): \(text)", file: file, line: line)
        }
    }

    /// The `headlines-feedcheck` that `swift build --build-tests` put beside this test bundle.
    static func feedcheck() throws -> URL {
        var candidates: [URL] = []
        var bundleDir = Bundle.main.bundleURL
        if bundleDir.pathExtension == "xctest" { bundleDir.deleteLastPathComponent() }
        candidates.append(bundleDir.appendingPathComponent("headlines-feedcheck"))
        if let exe = Bundle.main.executableURL {
            candidates.append(exe.deletingLastPathComponent().appendingPathComponent("headlines-feedcheck"))
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("headlines-feedcheck"))
        }
        let root = FixturePaths.root.deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/headlines-feedcheck"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw MissingTool(description: "headlines-feedcheck is not built (looked at \(candidates.map(\.path).joined(separator: ", "))); run `swift build --build-tests`")
        }
        return found
    }

    struct MissingTool: Error, CustomStringConvertible { var description: String }

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
