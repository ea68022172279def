import Foundation
import XCTest
@testable import HeadlinesCore

func thrownConfigError<T>(_ body: () throws(ConfigError) -> T, file: StaticString = #filePath, line: UInt = #line) -> ConfigError? {
    do {
        let value = try body()
        XCTFail("expected a ConfigError, got \(value)", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

/// Permission bits of a file or folder.
func mode(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}
