import Foundation
import XCTest
import BarFormats

/// The man pages, the Debian changelog and the Plasma applet's metadata name the version by hand: a
/// release that bumps HeadlinesVersion and forgets one of them fails here.
final class PackagingVersionTests: XCTestCase {
    let packaging = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()   // package root
        .appendingPathComponent("packaging")

    func lines(_ path: String) throws -> [Substring] {
        try String(contentsOf: packaging.appendingPathComponent(path), encoding: .utf8).split(separator: "\n")
    }

    func testTheManPagesNameTheVersion() throws {
        for page in ["man/headlines.1", "man/headlines.conf.5"] {
            let th = try XCTUnwrap(lines(page).first { $0.hasPrefix(".TH ") }, page)
            XCTAssertTrue(th.contains("\"headlines \(HeadlinesVersion.string)\""), "\(page): \(th)")
        }
    }

    func testThePlasmaAppletNamesTheVersion() throws {
        let metadata = try Data(contentsOf: packaging.appendingPathComponent("plasma/org.headlines.headlines/metadata.json"))
        let plugin = try XCTUnwrap((try JSONSerialization.jsonObject(with: metadata) as? [String: Any])?["KPlugin"] as? [String: Any])
        XCTAssertEqual(plugin["Version"] as? String, HeadlinesVersion.string)
    }

    func testTheDebianChangelogOpensWithTheVersion() throws {
        let first = try XCTUnwrap(lines("deb/changelog").first)
        XCTAssertTrue(first.hasPrefix("headlines (\(HeadlinesVersion.string)) "), String(first))
    }
}
