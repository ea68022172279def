import Foundation
import XCTest
@testable import HeadlinesCore

/// Permission bits of a file or folder.
func mode(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}
