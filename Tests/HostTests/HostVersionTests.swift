import Foundation
import TestSupport
import XCTest

/// `headlines-host --version` and `--help` answer and exit; they never start a host (they once
/// did: the options were parsed as `run`'s).
final class HostVersionTests: XCTestCase {
    func testVersionAndHelpAnswerWithoutStartingAHost() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let host = cli.executable.deletingLastPathComponent().appendingPathComponent("headlines-host")
        for option in ["--version", "--help"] {
            let process = Process()
            process.executableURL = host
            process.arguments = [option]
            process.environment = cli.environment()
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { process.terminate() }
            XCTAssertFalse(process.isRunning, "headlines-host \(option) was still running after 10 s")
            XCTAssertEqual(process.terminationStatus, 0)
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            XCTAssertTrue(text.hasPrefix("headlines-host"), "headlines-host \(option) printed: \(text)")
            let lock = cli.root.appendingPathComponent("runtime/headlines/host.lock").path
            XCTAssertFalse(FileManager.default.fileExists(atPath: lock), "headlines-host \(option) took the host lock")
        }
    }
}
