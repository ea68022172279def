import Foundation
import TestSupport
import XCTest

/// `headlines run 2>&1 | head -1`, then `headlines refresh`: the reader of the host's stderr is
/// gone, and the host (and its fetch child, which shares that stderr) must live on and reload.
final class ClosedStderrTests: HostTestCase {
    func testHostWhoseStderrReaderLeftKeepsReloading() throws {
        // Given a verbose host (a log line per entry change too) whose stderr is a pipe, and a
        // key file other users can read, so every fetch child warns on that stderr too
        try writeConfig(interval: "1h", dailyBudget: 10)
        let keyFile = cli.root.appendingPathComponent("apitube.key")
        try Data(Self.apiKey.utf8).write(to: keyFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile.path)
        let config = try String(contentsOf: configFile, encoding: .utf8)
            .replacingOccurrences(of: "[source]\n", with: "[source]\napi-key-file=\(keyFile.path)\n")
        try cli.writeConfig(config, at: configFile)
        let process = Process()
        process.executableURL = cli.executable
        process.arguments = ["run", "--verbose", "--config", configFile.path]
        process.environment = cli.environment(["DBUS_SESSION_BUS_ADDRESS": bus.address])
        process.currentDirectoryURL = cli.root
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }

        // When its first line has been read and the reader closes the pipe (`| head -1`)
        let firstLine = readLine(err.fileHandleForReading.fileDescriptor, timeout: 10)
        XCTAssertNotNil(firstLine, "the host printed no line within 10 s")
        try err.fileHandleForReading.close()
        XCTAssertNotNil(waitForRequests(1, timeout: 10), "the host made no first reload")

        // And `headlines refresh` asks for a reload (which logs, and starts a fetch child)
        for round in 2...3 {
            let refresh = try run(["refresh"])
            XCTAssertEqual(refresh.status, 0, "refresh \(round): \(refresh.stderr)")
            XCTAssertTrue(refresh.stdout.contains("Reloaded by the host"), "refresh \(round): \(refresh.stdout)")
            // Then the server saw the reload and the host is still there after its log lines
            XCTAssertNotNil(waitForRequests(round, timeout: 10), "no reload \(round)")
            Thread.sleep(forTimeInterval: 0.5)
            XCTAssertTrue(process.isRunning,
                          "the host died (status \(process.terminationStatus), reason \(process.terminationReason.rawValue)) after refresh \(round)")
        }
        XCTAssertTrue(try status().host_running)
    }

    /// Reads bytes up to the first newline, giving up after `timeout` seconds.
    private func readLine(_ fd: Int32, timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while Date() < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) == 1 else { continue }
            guard read(fd, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }
}
