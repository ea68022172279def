import Foundation
import TestSupport
import XCTest

/// A widget name the config has no group for (a typo in waybar's `--widget`, in i3blocks'
/// `instance=`, or on the command line) gets one sentence naming the configured widgets: the bar
/// shows it with the error class, starts no host, and no `headlines-widget-NAME` folder is left.
final class WidgetTypoTests: HostTestCase {
    private var runtime: URL { cli.root.appendingPathComponent("runtime") }
    private let sentence = "has no [widget nosuch]; its widgets are tech, world: check --widget or the i3blocks instance."

    private func writeWidgets() throws {
        try cli.writeConfig("""
            [source]
            provider=apitube
            base-url=\(server.baseURL.absoluteString)
            [widget tech]
            query=tech
            [widget world]
            query=world

            """, at: configFile)
    }

    private var typoFolderExists: Bool {
        FileManager.default.fileExists(atPath: runtime.appendingPathComponent("headlines-widget-nosuch").path)
    }

    private func bar(_ arguments: [String], extra: [String: String] = [:]) throws -> BackgroundProcess {
        let binary = cli.executable.deletingLastPathComponent().appendingPathComponent("headlines-bar")
        return try BackgroundProcess(executable: binary, arguments: arguments + ["--config", configFile.path],
                                     environment: cli.environment(extra.merging(["APITUBE_API_KEY": Self.apiKey]) { a, _ in a }))
    }

    func testAWaybarModuleWithATypoShowsOneErrorLineAndStartsNoHost() throws {
        // Given a config with widgets tech and world
        try writeWidgets()

        // When waybar runs the module with --widget nosuch
        let module = try bar(["waybar", "--widget", "nosuch"])
        defer { module.kill() }

        // Then it prints one line with the error class, naming the widgets there are
        XCTAssertNotNil(waitUntil(timeout: 10) { !module.lines(containing: "error", stream: .stdout).isEmpty }, module.transcript)
        let line = module.lines(containing: "error", stream: .stdout).first?.text ?? ""
        XCTAssertTrue(line.contains("\"class\":[\"error\"") || line.contains("\"class\":\"error\""), line)
        XCTAssertTrue(line.contains(sentence), line)
        // And keeps running without starting a host or saying one stopped, and makes no folder
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertTrue(module.isRunning, module.transcript)
        XCTAssertEqual(module.lines(containing: "{", stream: .stdout).count, 1, module.transcript)
        XCTAssertTrue(module.lines(containing: "stopped").isEmpty, module.transcript)
        XCTAssertEqual(requestCount, 0, "a host was started: \(module.transcript)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: runtime.appendingPathComponent("headlines/host.lock").path), module.transcript)
        XCTAssertFalse(typoFolderExists, module.transcript)
    }

    func testAnI3blocksInstanceTypoSaysSoInsteadOfShowingTheFirstWidget() throws {
        // Given a config with widgets tech and world
        try writeWidgets()

        // When an i3blocks block runs with instance=nosuch
        let block = try bar(["i3blocks"], extra: ["BLOCK_INSTANCE": "nosuch"])
        let exit = block.waitForExit(timeout: 10)

        // Then it prints the sentence with the error colour, and makes no folder
        XCTAssertEqual(exit?.status, 0, block.transcript)
        XCTAssertTrue(block.transcript.contains(sentence), block.transcript)
        XCTAssertEqual(requestCount, 0, block.transcript)
        XCTAssertFalse(typoFolderExists, block.transcript)
    }

    func testACommandWithATypoSaysWhichWidgetsThereAreAndMakesNoFolder() throws {
        // Given a config with widgets tech and world
        try writeWidgets()

        // When status is asked for --widget nosuch
        let status = try run(["--widget", "nosuch", "status"])

        // Then one sentence names the widgets, and no folder is made
        XCTAssertEqual(status.status, 2, status.stdout)
        XCTAssertEqual(status.stderrLines, ["headlines: \(configFile.path) \(sentence)"])
        XCTAssertFalse(typoFolderExists)
    }

    func testAWidgetNoHostServesYetIsCheckedAndShown() throws {
        // Given a config with widgets tech and world, and no host (so no widget folder yet)
        try writeWidgets()

        // When an i3blocks block for tech runs
        let block = try bar(["i3blocks", "--widget", "tech"])
        let exit = block.waitForExit(timeout: 15)

        // Then it shows tech's headline, and only tech's folder was made
        XCTAssertEqual(exit?.status, 0, block.transcript)
        XCTAssertTrue(block.lines(containing: "Central", stream: .stdout).count >= 1, block.transcript)
        XCTAssertTrue(FileManager.default.fileExists(atPath: runtime.appendingPathComponent("headlines-widget-tech").path))
        XCTAssertFalse(typoFolderExists)
    }
}
