import BarFormats
import Foundation
import TestSupport
import XCTest

/// Exit statuses a script can rely on: 0 for what was asked and done, 1 when the output did not
/// arrive, 2 for a command line that names nothing or something unknown, each with one sentence.
final class CommandExitTests: XCTestCase {
    private var cli: CLIRunner!

    override func setUpWithError() throws { cli = try CLIRunner() }
    override func tearDown() { cli?.cleanUp(); cli = nil }

    func testEmptyListJSONIsOneEmptyArray() throws {
        let result = try cli.run(["list", "--json"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, "[]\n")
    }

    /// The reload child asked for its version or help answers and fetches nothing (a packager's
    /// smoke test must not start a reload); an option it does not know is one sentence and 2.
    func testTheReloadChildAnswersVersionAndHelpWithoutReloading() throws {
        let version = try cli.reload(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("headlines-reload "), version.stdout)
        let help = try cli.reload(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("the host's reload child"), help.stdout)
        XCTAssertFalse(help.stdout.hasPrefix("{"), "--help printed a reload's report: \(help.stdout)")
        let bogus = try cli.reload(["--bogus"])
        XCTAssertEqual(bogus.status, 2)
        XCTAssertTrue(bogus.stderr.contains("unknown option --bogus"), bogus.stderr)
    }

    func testHelpForUnknownCommandExits2NamingIt() throws {
        let result = try cli.run(["help", "bogus"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderrLines.count, 1)
        XCTAssertTrue(result.stderr.contains("unknown command 'bogus'"), result.stderr)
    }

    func testNoArgumentsPrintsHelpOnStderrAndExits2() throws {
        let result = try cli.run([])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("Usage: headlines"), result.stderr)
    }

    func testOptionWithoutCommandExits2SayingWhatIsMissing() throws {
        let result = try cli.run(["-v"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderrLines.count, 1)
        XCTAssertTrue(result.stderr.contains("no command given"), result.stderr)
        XCTAssertTrue(result.stderr.contains("-v"), result.stderr)
    }

    func testWaybarHelpGivesTheSnippetsCommand() throws {
        // The README's and packaging/waybar's snippet runs headlines-bar; help must say the same
        let result = try cli.run(["help", "waybar"])
        XCTAssertTrue(result.stdout.contains(#""exec": "exec headlines-bar waybar""#), result.stdout)
    }

    func testAskedForHelpStillExits0() throws {
        for arguments in [["--help"], ["-h"], ["help"], ["help", "list"], ["list", "--help"], ["help", "prev"]] {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.stdout.contains("Usage: headlines"), "\(arguments): \(result.stdout)")
            XCTAssertEqual(result.stderr, "", "\(arguments)")
        }
    }

    func testBarHelpPrintsTheFormatsAndExits0() throws {
        // Before, headlines-bar handed --help to the CLI, whose help names no format.
        for option in ["--help", "-h"] {
            let process = Process()
            process.executableURL = cli.executable.deletingLastPathComponent().appendingPathComponent("headlines-bar")
            process.arguments = [option]
            process.environment = cli.environment()
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, option)
            XCTAssertEqual(text, BarUsage.text, option)
        }
    }

    func testOutputToAFullDeviceExits1WithOneSentence() throws {
        for arguments in [["list"], ["list", "--json"], ["--version"], ["help"]] {
            let result = try runWithStdout(to: "/dev/full", arguments)
            XCTAssertEqual(result.status, 1, "\(arguments)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("could not write the output"), "\(arguments): \(result.stderr)")
        }
    }

    func testClosedStdoutExits1InsteadOfDyingOfSIGPIPE() throws {
        let result = try runWithStdoutClosedByReader(["help"])
        XCTAssertEqual(result.reason, .exit, "killed by signal \(result.status)")
        XCTAssertEqual(result.status, 1)
    }

    // MARK: - Helpers

    private func runWithStdout(to path: String, _ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = cli.executable
        process.arguments = arguments
        process.environment = cli.environment()
        process.standardOutput = FileHandle(forWritingAtPath: path)
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }

    /// stdout is a pipe whose read end is closed before the command writes.
    private func runWithStdoutClosedByReader(_ arguments: [String]) throws -> (status: Int32, reason: Process.TerminationReason) {
        let process = Process()
        process.executableURL = cli.executable
        process.arguments = arguments
        process.environment = cli.environment()
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try out.fileHandleForReading.close()
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason)
    }
}
