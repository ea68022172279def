import Foundation
import TestSupport
import XCTest

/// The cache, status and ledger files emptied, cut in half, filled with garbage or made
/// unreadable: `list --json`, `status --json` and `fetch` still exit 0, each says at most one
/// line, and every line it says names the file. A corrupt file is moved aside to
/// `NAME.corrupt-*`, as it was, with one warning across the three commands; an unreadable one is
/// named and skipped. (The seen set is the host's alone: DamagedStateHostTests.)
final class DamagedStateFileTests: EndToEndTestCase {
    private var template: URL { cli.root.appendingPathComponent("template") }
    private let files = CLIRunner.stateFiles.filter { $0.key != "seen" }.sorted { $0.key < $1.key }

    override func setUpWithError() throws {
        try super.setUpWithError()
        server.route(Self.apitubePath, .json(apitubeFixture))
        try cli.writeConfig("[source]\nprovider = apitube\nbase-url = \(server.baseURL.absoluteString)\ntimeout = 5s\n")
        // A host's first reload leaves all three, good: the template every case starts from.
        let host = try BackgroundProcess(cli: cli, arguments: ["run"], environment: ["APITUBE_API_KEY": Self.apitubeKey])
        XCTAssertNotNil(host.waitForLine(containing: "reload ok", timeout: 20), host.transcript)
        let root = cli.root, files = files
        XCTAssertNotNil(waitUntil(timeout: 10) {
            files.allSatisfy { ((try? Data(contentsOf: root.appendingPathComponent($0.value)))?.count ?? 0) > 0 }
        }, "a state file is missing after the first reload; it printed:\n\(host.transcript)")
        _ = host.send(SIGTERM)
        XCTAssertEqual(host.waitForExit(timeout: 5)?.status, 0, host.transcript)
        try cli.saveState(to: template)
    }

    /// The template's files back, then `file` damaged; its bytes afterwards (nil when unreadable).
    private func damaged(_ file: String, _ how: FileDamage) throws -> Data? {
        try cli.restoreState(from: template)
        return try how.apply(to: cli.root.appendingPathComponent(file))
    }

    /// list --json, status --json and fetch, in that order.
    private func runTheThree() throws -> [(String, CLIRunner.Result)] {
        try [["list", "--json"], ["status", "--json"], ["fetch"]].map {
            ($0[0], try cli.run($0, environment: ["APITUBE_API_KEY": Self.apitubeKey]))
        }
    }

    /// Every command exits 0, says at most one line, each naming `path`; list and status print JSON.
    private func assertCarriedOn(_ results: [(String, CLIRunner.Result)], naming path: String, _ situation: String) {
        for (command, result) in results {
            XCTAssertEqual(result.status, 0, "\(situation): \(command): \(result.stderr)")
            XCTAssertLessThanOrEqual(result.stderrLines.count, 1, "\(situation): \(command): \(result.stderr)")
            for line in result.stderrLines { XCTAssertTrue(line.contains(path), "\(situation): \(command) said a line not naming the file: \(line)") }
            if command != "fetch" {
                XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)), "\(situation): \(command) printed no JSON")
            }
            XCTAssertFalse(result.stdout.contains(Self.apitubeKey) || result.stderr.contains(Self.apitubeKey), "\(situation): the key leaked")
        }
    }

    func testACorruptStateFileIsMovedAsideAsItWasWithOneWarning() throws {
        for (name, file) in files {
            for how in [FileDamage.empty, .truncated, .garbage] {
                let situation = "\(name).json \(how)"
                let bytes = try XCTUnwrap(try damaged(file, how))
                let path = cli.root.appendingPathComponent(file).path
                let results = try runTheThree()
                assertCarriedOn(results, naming: path, situation)
                let warnings = results.flatMap { $0.1.stderrLines }
                let folder = (path as NSString).deletingLastPathComponent
                let aside = try FileManager.default.contentsOfDirectory(atPath: folder)
                    .filter { $0.hasPrefix((path as NSString).lastPathComponent + ".corrupt-") }
                if name == "ledger" && how == .truncated && bytes.contains(0x0A) {
                    // JSON lines cut after a whole line read as a crash in the middle of an append
                    // does: the whole lines kept, the cut one dropped, nothing to warn about.
                    XCTAssertEqual(aside, [], situation)
                    XCTAssertEqual(warnings, [], situation)
                    continue
                }
                XCTAssertEqual(warnings.count, 1, "\(situation): \(warnings)")
                XCTAssertEqual(aside.count, 1, "\(situation): moved aside as \(aside)")
                if let first = aside.first {
                    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + first)), bytes,
                                   "\(situation): the file moved aside is not the damaged one")
                }
            }
        }
    }

    func testAnUnreadableStateFileIsNamedAndSkipped() throws {
        cli.launcher = CLIRunner.fileModesBindEvenRoot
        for (name, file) in files {
            XCTAssertNil(try damaged(file, .unreadable))
            let path = cli.root.appendingPathComponent(file).path
            let results = try runTheThree()
            assertCarriedOn(results, naming: path, "\(name).json unreadable")
            let said = results.flatMap { $0.1.stderrLines }.filter { $0.contains("Cannot read") && $0.contains("Permission denied") }
            XCTAssertFalse(said.isEmpty, "\(name).json unreadable: no command said it cannot be read")
        }
    }
}
