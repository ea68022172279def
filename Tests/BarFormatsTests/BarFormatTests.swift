import BarFormats
import Foundation
import XCTest

/// What headlines-bar says without the host: each format's error output keeps its format's
/// shape, and its usage names every format and option.
final class BarFormatTests: XCTestCase {
    func testEveryErrorOutputPassesItsOwnFormatsShape() throws {
        for format in BarFormat.allCases {
            let out = format.errorOutput("headlines: no host runs (start one: headlines start)")
            XCTAssertTrue(out.hasSuffix("\n"), "\(format)")
            switch format {
            case .waybar:
                XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], "\(format)")
            case .json:
                let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
                XCTAssertEqual(Set(doc.keys), ["widget", "state", "stale", "updated_at", "error", "index", "items"], "the same keys as a document")
            case .i3bar:
                XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]], "\(format)")
            case .yambar:
                XCTAssertTrue(out.hasSuffix("|\n\n"), out)
            default:
                XCTAssertTrue(out.contains("no host runs"), "\(format): \(out)")
            }
        }
    }

    func testBarUsageListsEveryFormatAndOption() {
        let lines = BarUsage.text.split(separator: "\n")
        let listed = lines.filter { $0.hasPrefix("FORMAT") }.flatMap { $0.split(separator: ": ")[1].split(separator: ", ") }
        XCTAssertEqual(listed.map(String.init).sorted(), BarFormat.allCases.map(\.rawValue).sorted())
        for word in BarUsage.commands + BarUsage.options {
            XCTAssertTrue(BarUsage.text.split { " ,;|()[]".contains($0) }.contains { $0 == word }, "headlines-bar --help lacks \(word)")
        }
    }
}
