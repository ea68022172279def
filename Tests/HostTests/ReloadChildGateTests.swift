import Foundation
import TestSupport
import XCTest

/// The reload child starts while the host saves the ledger, and sends nothing until the host ends
/// its stdin (`--wait-stdin`, ChildReloader.proceed): a host that dies between starting the child
/// and saving the ledger never spends a request the budget did not count, however fast the child.
final class ReloadChildGateTests: HostTestCase {
    func testTheReloadChildSendsNothingUntilItsStdinEnds() throws {
        try writeConfig(interval: "1h", dailyBudget: 48)
        let child = Process()
        child.executableURL = cli.executable.deletingLastPathComponent().appendingPathComponent("headlines-fetch")
        child.arguments = ["fetch", "--for-host", "--wait-stdin", "--config", configFile.path]
        child.environment = cli.environment(["APITUBE_API_KEY": Self.apiKey])
        let stdin = Pipe(), stdout = Pipe()
        child.standardInput = stdin
        child.standardOutput = stdout
        child.standardError = FileHandle.nullDevice
        try child.run()
        defer { if child.isRunning { kill(child.processIdentifier, SIGKILL) } }

        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertEqual(requestCount, 0, "the child sent a request before its stdin ended")
        XCTAssertTrue(child.isRunning, "the child did not wait for its stdin")

        try stdin.fileHandleForWriting.close()
        XCTAssertNotNil(waitForRequests(1, timeout: 10), "the child sent nothing after its stdin ended")
        let report = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        XCTAssertEqual(child.terminationStatus, 0)
        XCTAssertTrue(report.contains("\"headlines\""), "no report on stdout: \(report)")
    }
}
