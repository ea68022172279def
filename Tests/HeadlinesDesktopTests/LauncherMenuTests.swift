import Foundation
import XCTest
@testable import HeadlinesDesktop
import HeadlinesCore

/// The launcher menu runs the launcher through GLib's spawn with pipes (no Foundation Process):
/// the numbered list goes to its stdin, the picked line comes back on its stdout.
final class LauncherMenuTests: XCTestCase {
    func testThePickedLineIsTheIndexChosen() throws {
        // Given a stand-in launcher that picks the second line
        let index = try LauncherMenu.choose(["First", "Second", "Third"], argv: ["sh", "-c", "sed -n 2p"], environment: ProcessInfo.processInfo.environment)
        XCTAssertEqual(index, 1)
    }

    func testTheLauncherGetsNumberedLines() throws {
        let dir = NSTemporaryDirectory() + "headlines-menu-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try LauncherMenu.choose(["A & B", "C"], argv: ["sh", "-c", "cat > \"$0\"/in.txt; echo 1", dir], environment: ProcessInfo.processInfo.environment)
        XCTAssertEqual(try String(contentsOfFile: dir + "/in.txt", encoding: .utf8), "1. A & B\n2. C\n")
    }

    func testADismissedMenuOrAFailingLauncherPicksNothing() throws {
        XCTAssertNil(try LauncherMenu.choose(["A"], argv: ["sh", "-c", "cat >/dev/null; exit 1"], environment: ProcessInfo.processInfo.environment))
        XCTAssertNil(try LauncherMenu.choose(["A"], argv: ["sh", "-c", "cat >/dev/null"], environment: ProcessInfo.processInfo.environment))
        XCTAssertNil(try LauncherMenu.choose(["A"], argv: ["sh", "-c", "echo 9"], environment: ProcessInfo.processInfo.environment), "out of range")
        // A launcher that exits without reading its input must not kill us with SIGPIPE.
        let many = (0..<20_000).map { "Headline number \($0)" }
        XCTAssertEqual(try LauncherMenu.choose(many, argv: ["sh", "-c", "echo 3"], environment: ProcessInfo.processInfo.environment), 2)
    }

    func testAMissingLauncherIsAClearError() {
        XCTAssertThrowsError(try LauncherMenu.choose(["A"], argv: ["headlines-no-such-launcher"], environment: ProcessInfo.processInfo.environment)) { error in
            XCTAssertTrue("\(error)".hasPrefix("The launcher failed (headlines-no-such-launcher: "), "\(error)")
        }
    }
}

/// The README's config examples, read by GKeyFile as `headlines` reads them, parse without error
/// or warning: a copied example must work (the `provider = json` one carried inline
/// comments into its values).
final class ReadmeConfigExampleTests: XCTestCase {
    func testEveryIniExampleInTheReadmeParsesCleanly() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let blocks = text.components(separatedBy: "```ini\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        XCTAssertTrue(blocks.contains { $0.contains("provider = json") }, "the README has no provider = json example")
        let dir = NSTemporaryDirectory() + "headlines-readme-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The i3blocks snippet is i3blocks' own config, not ours.
        for (i, block) in blocks.enumerated() where !block.hasPrefix("[headlines]") {
            let path = dir + "/example-\(i).conf"
            try block.write(toFile: path, atomically: true, encoding: .utf8)
            let groups = try XCTUnwrap(try KeyFileReader.read(path: path))
            let config = try Config.parse(groups: groups, file: path)
            XCTAssertEqual(config.warnings, [], block)
            if block.contains("provider = json") { XCTAssertEqual(config.jsonPaths.items, "", block) }
        }
    }
}

final class LauncherCheckTests: XCTestCase {
    func testAConfiguredProgramNotOnPathIsNamed() {
        XCTAssertEqual(LauncherMenu.missingProgram(["headlines-no-such-launcher", "-dmenu"]), "headlines-no-such-launcher")
        XCTAssertNil(LauncherMenu.missingProgram(["sh", "-c", "true"]))
        XCTAssertEqual(LauncherMenu.configWarning(configured: "headlines-no-such-launcher -i", file: "/c.conf"),
                       "/c.conf: [bar] launcher names 'headlines-no-such-launcher', which is not installed or not on PATH: `headlines menu` cannot open it.")
        XCTAssertNil(LauncherMenu.configWarning(configured: "sh -c true", file: "/c.conf"))
        XCTAssertNil(LauncherMenu.configWarning(configured: nil, file: "/c.conf"))
    }
}
