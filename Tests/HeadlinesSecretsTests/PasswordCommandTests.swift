import Foundation
import HeadlinesCore
@testable import HeadlinesSecrets
import XCTest

/// `[source] password-command`, run for real (sh, printf, sleep): its first line is the password,
/// it runs without a shell, with stdin and stderr on /dev/null and no API key in its environment,
/// and a failure names the program and how it ended, never what it printed.
final class PasswordCommandTests: XCTestCase {
    private let password = "pw-Distinct-7Q2xK9"
    private let environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "APITUBE_API_KEY": "sk-test-SECRET-4242"]

    private func run(_ argv: [String], timeout: Swift.Duration = PasswordCommand.timeout) -> Result<String, PasswordCommand.Failure> {
        PasswordCommand.run(argv, environment: environment, timeout: timeout)
    }

    func testTheFirstLineOfItsOutputIsThePassword() {
        XCTAssertEqual(try run(["printf", "\(password)\\nuser: alice\\n"]).get(), password)
        XCTAssertEqual(try run(["printf", "\(password)\\r\\n"]).get(), password, "a CRLF line ending is not part of it")
        XCTAssertEqual(try run(["printf", password]).get(), password, "no newline at all")
        XCTAssertEqual(try run(["printf", " \(password) \\n"]).get(), " \(password) ", "spaces are the password's own")
    }

    func testNoShellReadsTheCommand() {
        // A shell would expand the variable and the glob; the program gets the words as written.
        XCTAssertEqual(try run(["printf", "%s", "$HOME*"]).get(), "$HOME*")
    }

    func testStdinAndStderrAreDevNullAndTheEnvironmentHoldsNoKey() {
        XCTAssertEqual(try run(["readlink", "/proc/self/fd/0"]).get(), "/dev/null")
        XCTAssertEqual(try run(["sh", "-c", "readlink /proc/self/fd/2"]).get(), "/dev/null")
        XCTAssertEqual(try run(["sh", "-c", "echo \"key:${APITUBE_API_KEY:-none} path:$PATH\""]).get(),
                       "key:none path:/usr/local/bin:/usr/bin:/bin")
    }

    func testAFailureNamesTheProgramAndHowItEndedButNeverItsOutput() {
        let cases: [([String], String)] = [
            (["sh", "-c", "echo \(password); exit 3"], "password-command `sh` exited with status 3"),
            (["sh", "-c", "echo \(password) >&2; kill -TERM $$"], "password-command `sh` was killed by signal 15"),
            (["true"], "password-command `true` printed nothing"),
            (["printf", "\\n\(password)\\n"], "password-command `printf` printed an empty first line, where the password goes"),
            (["sh", "-c", "printf '\(password)%.0s' $(seq 300)"], "password-command `sh` printed more than 4 KiB, which is not a password"),
        ]
        for (argv, clause) in cases {
            switch run(argv) {
            case .success: XCTFail("\(argv) gave a password")
            case let .failure(failure):
                XCTAssertEqual(failure.clause, clause, "\(argv)")
                XCTAssertFalse(failure.clause.contains(password), "\(argv): \(failure.clause)")
            }
        }
    }

    func testAProgramThatIsNotThereIsNamed() {
        guard case let .failure(failure) = run(["headlines-no-such-program", password]) else { return XCTFail("it ran") }
        XCTAssertTrue(failure.clause.hasPrefix("password-command `headlines-no-such-program` could not be started ("), failure.clause)
        XCTAssertFalse(failure.clause.contains(password), failure.clause)
    }

    func testAProgramThatHangsIsKilledAtTheTimeout() throws {
        // The pid file says which sleep to look for afterwards: it must be gone, not left behind.
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("headlines-hang-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: pidFile) }
        let started = Date()
        let result = run(["sh", "-c", "echo $$ > \(pidFile.path); exec sleep 120"], timeout: Swift.Duration.seconds(1))
        guard case let .failure(failure) = result else { return XCTFail("a hanging command gave a password") }
        XCTAssertEqual(failure.clause, "password-command `sh` did not finish within 1 s")
        XCTAssertLessThan(Date().timeIntervalSince(started), 60, "the timeout was not applied")
        let pid = try XCTUnwrap(Int32(String(decoding: try Data(contentsOf: pidFile), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertNotEqual(kill(pid, 0), 0, "the hanging command still runs")
    }

    func testAProgramThatClosesItsOutputButKeepsRunningIsKilledToo() {
        let result = run(["sh", "-c", "echo \(password); exec >&-; exec sleep 120"], timeout: Swift.Duration.seconds(1))
        guard case let .failure(failure) = result else { return XCTFail("a command still running gave a password") }
        XCTAssertEqual(failure.clause, "password-command `sh` did not finish within 1 s")
    }
}
