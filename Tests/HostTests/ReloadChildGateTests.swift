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

    /// The host starts the child without closing its own descriptors (posix_spawn is about 1 ms
    /// faster than fork); the child closes every one above 2 itself, so none it inherits stays open.
    func testTheReloadChildClosesEveryDescriptorItInherits() throws {
        try writeConfig(interval: "1h", dailyBudget: 48)
        let fetch = cli.executable.deletingLastPathComponent().appendingPathComponent("headlines-fetch")
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        // fd 7 is inheritable (the shell opens it without close-on-exec), as a leak would be.
        child.arguments = ["-c", "exec 7</dev/null; exec \"$0\" fetch --for-host --wait-stdin --config \"$1\"",
                           fetch.path, configFile.path]
        child.environment = cli.environment(["APITUBE_API_KEY": Self.apiKey])
        let stdin = Pipe()
        child.standardInput = stdin
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        defer { if child.isRunning { kill(child.processIdentifier, SIGKILL) } }
        let folder = "/proc/\(child.processIdentifier)/fd"
        var open: [String] = []
        for _ in 0..<100 {
            let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child.processIdentifier)/exe")
            open = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            if exe?.hasSuffix("/headlines-fetch") == true && open == ["0", "1", "2"] { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertEqual(open, ["0", "1", "2"], "the reload child kept descriptors it inherited")
        XCTAssertTrue(child.isRunning, "the child did not wait for its stdin")
        try stdin.fileHandleForWriting.close()
        child.waitUntilExit()
    }
}
