import Foundation
import TestSupport
import XCTest

/// A typo in the config (`typo = 1` under [source]) must not blank a bar: every bar shows
/// "headlines: config error (see headlines status)" with the error class and keeps running until
/// the config loads; `status` says the sentence itself and exits 2.
final class BarConfigErrorTests: HostTestCase {
    private let barText = "headlines: config error (see headlines status)"

    private func writeTypo() throws { try cli.writeConfig("[source]\ntypo = 1\n", at: configFile) }

    func testOneShotI3blocksPrintsTheErrorBlockAndExitsZero() throws {
        try writeTypo()
        for env in [[:], ["markup": "pango"], ["BLOCK_BUTTON": "1"]] {
            let result = try cli.run(["i3blocks", "--config", configFile.path], environment: env)
            XCTAssertEqual(result.status, 0, "\(env): \(result.stderr)")
            XCTAssertEqual(result.stdoutLines, [barText, "headlines: config error", "#BF616A"], "\(env)")
            XCTAssertTrue(result.stderr.contains("unknown key 'typo'"), result.stderr)
        }
        let status = try cli.run(["status", "--config", configFile.path])
        XCTAssertEqual(status.status, 2)
        XCTAssertTrue(status.stderr.contains("unknown key 'typo' in [source]"), status.stderr)
    }

    /// `waybar` and `i3blocks --persist`, through headlines-bar (whose host publishes the error
    /// lines) and in-process (HEADLINES_NO_BAR_EXEC=1): the error line, then headlines once fixed.
    func testWaybarThroughHeadlinesBar() throws { try assertBarShowsTheErrorThenHeadlines(["waybar"]) }
    func testWaybarInProcess() throws { try assertBarShowsTheErrorThenHeadlines(["waybar"], inProcess: true) }
    func testHeadlinesBarWaybarRunDirectly() throws { try assertBarShowsTheErrorThenHeadlines(["waybar"], direct: true) }
    func testI3blocksPersistThroughHeadlinesBar() throws { try assertBarShowsTheErrorThenHeadlines(["i3blocks", "--persist"]) }
    func testI3blocksPersistJSONInProcess() throws {
        try assertBarShowsTheErrorThenHeadlines(["i3blocks", "--persist", "--json"], inProcess: true)
    }

    private func assertBarShowsTheErrorThenHeadlines(_ arguments: [String], inProcess: Bool = false, direct: Bool = false,
                                                     file: StaticString = #filePath, line: UInt = #line) throws {
        // Given a config with a typo
        try writeTypo()
        var env = ["APITUBE_API_KEY": Self.apiKey]
        if inProcess { env["HEADLINES_NO_BAR_EXEC"] = "1" }

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
