import Foundation
import HeadlinesCore
import XCTest

/// A date from an RFC 3339 literal, through the same parser the providers use, so milliseconds
/// compare exactly.
public func date(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Date {
    guard let d = ISO8601.parse(text) else {
        XCTFail("not a date: \(text)", file: file, line: line)
        return Date(timeIntervalSince1970: 0)
    }
    return d
}

public func url(_ text: String) -> URL { URL(string: text)! }

/// The fixed clock the fixture tests use: an hour after the newest fixture headline.
public let fixtureNow = date("2026-11-30T00:00:00Z")

/// The error a typed-throwing call threw, or nil (and a failure) when it returned.
public func thrownError<T, E: Error>(_ body: () throws(E) -> T, file: StaticString = #filePath, line: UInt = #line) -> E? {
    do {
        let value = try body()
        XCTFail("expected \(E.self), got \(value)", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

/// A fresh folder under the system temp dir, removed when the test case tears down.
public func makeTempDir(_ testCase: XCTestCase) throws -> String {
    let path = NSTemporaryDirectory() + "headlines-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    testCase.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    return path
}

/// A fixed sequence of texts, the same on every run.
public struct SeededRandom {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
    public mutating func text(from pieces: [String]) -> String {
        (0..<next(14)).map { _ in pieces[next(pieces.count)] }.joined()
    }
}
