import Foundation
import XCTest
@testable import HeadlinesCore
@testable import HeadlinesSources

/// The files under `Fixtures/`, found from this source file so no bundle resources are needed.
enum Fixture {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // HeadlinesCoreTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // package root
        .appendingPathComponent("Fixtures")

    static func data(_ relativePath: String, file: StaticString = #filePath, line: UInt = #line) -> Data {
        let url = root.appendingPathComponent(relativePath)
        guard let data = try? Data(contentsOf: url) else {
            XCTFail("missing fixture \(url.path)", file: file, line: line)
            return Data()
        }
        return data
    }

    /// The fixture served as an HTTP response, the way a transport hands it to a provider.
    static func response(_ relativePath: String, status: Int = 200, headers: [String: String] = [:],
                         file: StaticString = #filePath, line: UInt = #line) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"].merging(headers) { _, new in new },
                     body: data(relativePath, file: file, line: line))
    }
}

/// A date from an RFC 3339 literal, through the same parser the providers use, so milliseconds
/// compare exactly.
func date(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Date {
    guard let d = ISO8601.parse(text) else {
        XCTFail("not a date: \(text)", file: file, line: line)
        return Date(timeIntervalSince1970: 0)
    }
    return d
}

func url(_ text: String) -> URL { URL(string: text)! }

/// The error a typed-throwing call threw, or nil (and a failure) when it returned.
func thrownError<T>(_ body: () throws(NewsError) -> T, file: StaticString = #filePath, line: UInt = #line) -> NewsError? {
    do {
        let value = try body()
        XCTFail("expected a NewsError, got \(value)", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

func thrownConfigError<T>(_ body: () throws(ConfigError) -> T, file: StaticString = #filePath, line: UInt = #line) -> ConfigError? {
    do {
        let value = try body()
        XCTFail("expected a ConfigError, got \(value)", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

/// A fresh folder under the system temp dir, removed when the test case tears down.
func makeTempDir(_ testCase: XCTestCase) throws -> String {
    let path = NSTemporaryDirectory() + "headlines-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    testCase.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    return path
}

/// Permission bits of a file or folder.
func mode(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

/// The fixed clock every test uses: an hour after the newest fixture headline.
let fixtureNow = date("2026-11-30T00:00:00Z")
