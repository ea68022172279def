import Foundation
import TestSupport
import XCTest

/// A host started on a damaged cache, status, ledger and seen set keeps running and reloads ok: a
/// corrupt file is moved aside with one warning naming it, an unreadable one is named and skipped,
/// and a SIGTERM still ends it with 0.
final class DamagedStateHostTests: HostTestCase {
    func testTheHostReloadsOkWhateverStateFileIsDamaged() throws {
        // Given the four files a host's first reload leaves, kept aside as a template
        try writeConfig(interval: "1h", dailyBudget: 10)
        let first = try startHost()
        try expectLine("reload ok", from: first, within: 20)
        let root = cli.root
        XCTAssertNotNil(waitUntil(timeout: 10) {
            CLIRunner.stateFiles.values.allSatisfy { ((try? Data(contentsOf: root.appendingPathComponent($0)))?.count ?? 0) > 0 }
        }, "a state file is missing after the first reload; it printed:\n\(first.transcript)")
        assertStopsQuickly(first, "the template host")
        let template = cli.root.appendingPathComponent("template")
        try cli.saveState(to: template)

        for how in FileDamage.allCases {
            // When all four are damaged the same way and a host starts on them
            try cli.restoreState(from: template)
            var bytes: [String: Data] = [:]
            for (name, file) in CLIRunner.stateFiles { bytes[name] = try how.apply(to: root.appendingPathComponent(file)) }
            cli.launcher = how == .unreadable ? CLIRunner.fileModesBindEvenRoot : []
            let host = try startHost()
            cli.launcher = []
            try expectLine("reload ok", from: host, within: 20)
            // The seen set is read once the reload's headlines are offered for notification.
            _ = host.waitForLine(containing: "seen.json", timeout: 5)

            // Then each file is named once, moved aside when corrupt, and the host stops on SIGTERM
            for (name, file) in CLIRunner.stateFiles {
                let situation = "\(name).json \(how)"
                let path = root.appendingPathComponent(file).path
                let named = host.lines(containing: path).count
                let aside = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
                    .filter { $0.hasPrefix((path as NSString).lastPathComponent + ".corrupt-") }
                switch how {
                case .unreadable:
                    XCTAssertEqual(host.lines(containing: path).filter { $0.text.contains("Cannot read") }.count, 1,
                                   "\(situation): \(host.transcript)")
                case .truncated where name == "ledger" && bytes[name]?.contains(0x0A) == true:
                    // Its whole lines read, the cut last one dropped, as after a crash mid-append.
                    XCTAssertEqual(named, 0, "\(situation): \(host.transcript)")
                    XCTAssertEqual(aside, [], situation)
                default:
                    XCTAssertEqual(named, 1, "\(situation): \(host.transcript)")
                    XCTAssertEqual(aside.count, 1, "\(situation): moved aside as \(aside)")
                }
            }
            assertStopsQuickly(host, "a host on \(how) state files")
        }
    }
}
