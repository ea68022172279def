import Foundation
import TestSupport
import XCTest

/// A typo in the config (`typo = 1` under [source]) must not blank a bar: every bar shows
/// "headlines: config error (see headlines status)" with the error class and keeps running until
/// the config loads; `status` says the sentence itself and exits 2.
final class BarConfigErrorTests: HostTestCase {
    private let barText = "headlines: config error (see headlines status)"

    private func writeTypo() throws { try cli.writeConfig("[source]\ntypo = 1\n", at: configFile) }

    /// The one-shot block finds no host and asks the bus for one; the host, whose config does not
    /// load, publishes the error block, which the next runs print (a click too), exit 0.
    func testOneShotI3blocksPrintsTheErrorBlockAndExitsZero() throws {
        try writeTypo()
        let first = try cli.run(["i3blocks", "--config", configFile.path], environment: environment)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdoutLines, ["headlines: starting the host", "headlines: starting the host", "#BF616A"])
        for env in [[:], ["markup": "pango"], ["BLOCK_BUTTON": "1"]] {
            var printed: [String] = []
            _ = waitUntil(timeout: 10) {
                printed = (try? cli.run(["i3blocks", "--config", configFile.path], environment: environment.merging(env) { $1 }))?.stdoutLines ?? []
                return printed.first?.contains("config error") == true
            }
            XCTAssertEqual(printed, [barText, "headlines: config error", "#BF616A"], "\(env)")
        }
        let status = try cli.run(["status", "--config", configFile.path])
        XCTAssertEqual(status.status, 2)
        XCTAssertTrue(status.stderr.contains("unknown key 'typo' in [source]"), status.stderr)
    }

    /// `waybar` and `i3blocks --persist`, through `headlines` and run directly: the host the bus
    /// starts publishes the error lines; then headlines once fixed.
    func testWaybarThroughHeadlinesBar() throws { try assertBarShowsTheErrorThenHeadlines(["waybar"]) }
    func testHeadlinesBarWaybarRunDirectly() throws { try assertBarShowsTheErrorThenHeadlines(["waybar"], direct: true) }
    func testI3blocksPersistThroughHeadlinesBar() throws { try assertBarShowsTheErrorThenHeadlines(["i3blocks", "--persist"]) }
    func testI3blocksPersistJSON() throws { try assertBarShowsTheErrorThenHeadlines(["i3blocks", "--persist", "--json"]) }

    private func assertBarShowsTheErrorThenHeadlines(_ arguments: [String], direct: Bool = false,
                                                     file: StaticString = #filePath, line: UInt = #line) throws {
        // Given a config with a typo
        try writeTypo()
        let env = environment

        // When a bar starts
        let bar = direct
            ? try BackgroundProcess(executable: cli.executable.deletingLastPathComponent().appendingPathComponent("headlines-bar"),
                                    arguments: arguments + ["--config", configFile.path], environment: cli.environment(env))
            : try BackgroundProcess(cli: cli, arguments: arguments + ["--config", configFile.path], environment: env)
        defer { _ = bar.kill() }

        // Then it shows the config error with the error class, and keeps running
        guard let first = bar.waitForLine(containing: "config error", stream: .stdout, timeout: 15) else {
            return XCTFail("no config error line: \(bar.transcript)", file: file, line: line)
        }
        if arguments == ["waybar"] {
            XCTAssertTrue(first.text.contains(#""class":["error"]"#), first.text, file: file, line: line)
            XCTAssertTrue(first.text.contains("unknown key"), "the tooltip names the error: \(first.text)", file: file, line: line)
        } else if arguments.contains("--json") {
            XCTAssertTrue(first.text.contains("#BF616A"), first.text, file: file, line: line)
        }
        usleep(1_500_000)
        XCTAssertTrue(bar.isRunning, "the bar exited on a config error: \(bar.transcript)", file: file, line: line)

        // And once the config is fixed it shows headlines without being restarted
        let mark = bar.mark
        try writeConfig(interval: "1h", dailyBudget: 10)
        let next = bar.waitForLine(after: mark, stream: .stdout, timeout: 20) {
            !$0.contains("config error") && !$0.contains("No headlines yet")
        }
        XCTAssertNotNil(next, "no headline after the fix: \(bar.transcript)", file: file, line: line)
        XCTAssertTrue(bar.isRunning, bar.transcript, file: file, line: line)
    }
}
