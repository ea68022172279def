import Foundation
import TestSupport
import XCTest

/// `headlines next` asks the host, which the bus starts: run by 40 processes at once, every one
/// of them must count (the host takes the bus calls one at a time and keeps offset.json).
final class ConcurrentNextTests: XCTestCase {
    private var cli: CLIRunner!
    private var bus: PrivateBus!
    private var environment: [String: String] = [:]

    override func setUpWithError() throws {
        cli = try CLIRunner()
        // A source that refuses at once: the host's reloads fail quickly and send nothing out.
        try cli.writeConfig("[source]\nprovider = feeds\nfeeds = http://127.0.0.1:9/none.rss\n")
        (bus, environment) = try cli.activatingBus()
    }
    override func tearDown() { bus?.stop(); cli?.cleanUp(); cli = nil }

    private var offsetFile: URL { cli.root.appendingPathComponent("runtime/headlines/offset.json") }

    private func offset() throws -> Int {
        struct Stored: Decodable { var offset: Int }
        return try JSONDecoder().decode(Stored.self, from: Data(contentsOf: offsetFile)).offset
    }

    private func runAtOnce(_ command: String, times: Int) throws {
        let processes = (0..<times).map { _ -> Process in
            let process = Process()
            process.executableURL = cli.executable
            process.arguments = [command]
            process.environment = cli.environment(environment)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            return process
        }
        for process in processes { try process.run() }
        let deadline = Date().addingTimeInterval(60)
        for process in processes {
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            XCTAssertFalse(process.isRunning, "a `headlines \(command)` did not finish within 60 s")
            XCTAssertEqual(process.terminationStatus, 0)
        }
    }

    func testFortyConcurrentNextMoveTheOffsetByForty() throws {
        try runAtOnce("next", times: 40)
        XCTAssertEqual(try offset(), 40)
        try runAtOnce("prev", times: 15)
        XCTAssertEqual(try offset(), 25)
    }
}
