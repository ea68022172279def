import Foundation
import TestSupport
import XCTest

/// `headlines doctor` on a sync account (a Miniflux on loopback, whose token header is the
/// password): where the password comes from when the Secret Service has none or is not there
/// (the password-command, then the password-file), what it says when nothing gives one, and that
/// the password reaches no output, no file and no other process's arguments or environment.
final class SyncPasswordSourcesTests: SyncPasswordTestCase {
    /// The test's own files, outside the folders `assertNowhere` searches: the password is the
    /// user's to keep there.
    private var fixture: URL { cli.root.appendingPathComponent("fixture") }

    /// A private file holding the password, its path for the config.
    private func passwordFile() throws -> String {
        try FileManager.default.createDirectory(at: fixture, withIntermediateDirectories: true)
        let path = fixture.appendingPathComponent("password").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("\(Self.password)\n".utf8),
                                                     attributes: [.posixPermissions: 0o600]))
        return path
    }

    func testWithNoSecretServiceTheCommandThenTheFileGiveThePassword() throws {
        let emptyBus = try PrivateBus(folder: cli.root.appendingPathComponent("empty-bus"))
        defer { emptyBus.stop() }
        let file = try passwordFile()
        for environment in [["DBUS_SESSION_BUS_ADDRESS": "disabled:"], ["DBUS_SESSION_BUS_ADDRESS": emptyBus.address]] {
            try cli.writeConfig(minifluxConfig("password-command = cat \(file)\npassword-file = /nonexistent\n"))
            XCTAssertTrue(try doctorConfigLine(environment).hasSuffix(tookPassword(from: "password-command `cat`")))
            try cli.writeConfig(minifluxConfig("password-file = \(file)\n"))
            XCTAssertTrue(try doctorConfigLine(environment).hasSuffix(tookPassword(from: "password-file \(file)")))
        }
        XCTAssertEqual(tokensSent, Array(repeating: Self.password, count: 4))
    }

    func testACommandThatFailsBeforeAFileThatAnswersIsSaid() throws {
        let file = try passwordFile()
        try cli.writeConfig(minifluxConfig("password-command = sh -c 'cat \(file); exit 3'\npassword-file = \(file)\n"))
        let line = try doctorConfigLine()
        XCTAssertTrue(line.hasSuffix(tookPassword(from: "password-file \(file)")
                                     + "; password-command `sh` exited with status 3, so it came from password-file \(file)"), line)
        XCTAssertEqual(tokensSent, [Self.password])
    }

    func testWhenNothingGivesAPasswordDoctorSaysWhatEachSourceSaidAndHowToFixIt() throws {
        let file = try passwordFile()
        XCTAssertEqual(chmod(file, 0o644), 0)
        try cli.writeConfig(minifluxConfig("password-command = headlines-no-such-program\npassword-file = \(file)\n"))
        let doctor = try cli.run(["doctor"])
        XCTAssertEqual(doctor.status, 1)
        let change = try XCTUnwrap(doctor.stdoutLines.first { $0.contains("has no password to sign in with") }, doctor.stdout)
        XCTAssertTrue(change.hasSuffix(". Miniflux at 127.0.0.1 has no password to sign in with (no Secret Service answers on the session bus; password-command `headlines-no-such-program` could not be started (Failed to execute child process “headlines-no-such-program” (No such file or directory)); password-file \(file) is not private (mode 0644): run chmod 600 \(file)): store it with `headlines login miniflux`, or set [source] password-command or password-file."),
                      change)
        XCTAssertEqual(server.requests.count, 0, "a request without a password")
        assertNowhere(Self.password, in: [doctor])
    }

    /// The password-command below keeps its environment, then prints the password; once doctor
    /// is done, no process still running holds the password in its arguments or environment.
    func testNoProcessHoldsThePasswordInItsArgumentsOrEnvironment() throws {
        let file = try passwordFile()
        let script = fixture.appendingPathComponent("password-command")
        try """
            #!/bin/sh
            tr '\\0' '\\n' < /proc/$$/environ > \(fixture.path)/environ
            cat \(file)

            """.write(to: script, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(script.path, 0o700), 0)
        try cli.writeConfig(minifluxConfig("password-command = \(script.path)\n"))
        let doctor = try cli.run(["doctor"], environment: ["APITUBE_API_KEY": "sk-test-SECRET-4242"])
        XCTAssertTrue(doctor.stdout.contains(tookPassword(from: "password-command `\(script.path)`")), doctor.stdout)
        XCTAssertEqual(tokensSent, [Self.password])
        let environ = try String(contentsOf: fixture.appendingPathComponent("environ"), encoding: .utf8)
        XCTAssertTrue(environ.contains("HOME=\(cli.root.path)/home\n"), environ)
        XCTAssertFalse(environ.contains("APITUBE_API_KEY"), "the password-command got an API key: \(environ)")
        assertNowhere(Self.password, in: [doctor])
        // And nothing left running holds it.
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int32(entry) != nil {
            for part in ["cmdline", "environ"] {
                let data = FileManager.default.contents(atPath: "/proc/\(entry)/\(part)") ?? Data()
                XCTAssertNil(data.range(of: Data(Self.password.utf8)), "process \(entry)'s \(part) holds the password")
            }
        }
    }
}
