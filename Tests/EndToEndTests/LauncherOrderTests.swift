import Foundation
import TestSupport
import XCTest
import HeadlinesCore

/// One launcher order everywhere: every text that lists the launchers `headlines menu` tries
/// lists them in the order it tries them (`KnownLaunchers`).
final class LauncherOrderTests: EndToEndTestCase {
    private let order = KnownLaunchers.all.map(\.name)

    /// The launchers a line names, in the order it names them ("suckless-tools" is dmenu's package).
    private func named(in line: String) -> [String] {
        let text = line.replacingOccurrences(of: "suckless-tools", with: "dmenu")
        return order.compactMap { name in text.range(of: name).map { (name, $0.lowerBound) } }
            .sorted { $0.1 < $1.1 }.map(\.0)
    }

    private func assertListsFollowTheOrder(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let lists = text.split(separator: "\n").map(String.init).filter { named(in: $0).count >= 3 }
        XCTAssertFalse(lists.isEmpty, "\(what) lists no launchers", file: file, line: line)
        for list in lists {
            let names = named(in: list)
            XCTAssertEqual(names, order.filter(names.contains), "\(what): \(list)", file: file, line: line)
        }
    }

    func testEveryListOfLaunchersFollowsTheOrderMenuTriesThem() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for path in ["README.md", "packaging/man/headlines.1", "packaging/man/headlines.conf.5", "packaging/deb/control.in"] {
            assertListsFollowTheOrder(try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8), path)
        }
        for command in [["--help"], ["help", "menu"]] {
            let help = try cli.run(command)
            XCTAssertEqual(help.status, 0, help.stderr)
            assertListsFollowTheOrder(help.stdout, "headlines \(command.joined(separator: " "))")
        }
    }
}
