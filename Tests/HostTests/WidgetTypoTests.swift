import Foundation
import TestSupport
import XCTest

/// A widget name the config has no group for (a typo in waybar's `--widget`, or on the command
/// line, or an i3blocks `instance=`) gets one sentence naming it and the widgets there are: the bar
/// shows it with the error class, once the host it asked for runs, and no `headlines-widget-NAME`
/// folder is made.
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
                                     environment: cli.environment(extra.merging(environment) { a, _ in a }))
    }

    func testAWaybarModuleWithATypoShowsOneErrorLine() throws {
        // Given a config with widgets tech and world
        try writeWidgets()

        // When waybar runs the module with --widget nosuch
        let module = try bar(["waybar", "--widget", "nosuch"])
        defer { module.kill() }

        // Then, once the host it asked the bus for runs, it prints one line with the error class
        XCTAssertNotNil(waitUntil(timeout: 10) { !module.lines(containing: "error", stream: .stdout).isEmpty }, module.transcript)
        let line = module.lines(containing: "error", stream: .stdout).first?.text ?? ""
        XCTAssertTrue(line.contains("\"class\":[\"error\"") || line.contains("\"class\":\"error\""), line)
        XCTAssertTrue(line.contains("the host serves no widget nosuch; its widgets are tech, world (see headlines status)"), line)
        // And keeps running, and makes no folder
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertTrue(module.isRunning, module.transcript)
        XCTAssertFalse(typoFolderExists, module.transcript)
    }

    func testAnI3blocksInstanceTypoNamesItInTheBlock() throws {
        // Given a config with widgets tech and world
        try writeWidgets()

        // When an i3blocks block runs with instance=nosuch, again until a host has answered
        var printed = ""
        _ = waitUntil(timeout: 15) {
            printed = (try? cli.run(["i3blocks", "--config", configFile.path], environment: environment.merging(["BLOCK_INSTANCE": "nosuch"]) { $1 }))?.stdout ?? ""
            return printed.contains("nosuch")
        }

        // Then the block names the widget it asked for, and the ones there are, and no folder is made
        XCTAssertTrue(printed.hasPrefix("headlines: the host serves no widget nosuch; its widgets are tech, world"), printed)
        XCTAssertFalse(typoFolderExists)
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

    func testAWidgetNoHostServesYetIsShownOnceTheBusStartedOne() throws {
        // Given a config with widgets tech and world, and no host (so no widget folder yet)
        try writeWidgets()

        // When an i3blocks block for tech runs, it asks the bus for a host and says so
        let first = try bar(["i3blocks", "--widget", "tech"])
        XCTAssertEqual(first.waitForExit(timeout: 15)?.status, 0, first.transcript)
        XCTAssertFalse(first.lines(containing: "starting the host", stream: .stdout).isEmpty, first.transcript)

        // Then a later run shows tech's headline, and only tech's folder was made
        var printed = ""
        _ = waitUntil(timeout: 15) {
            printed = (try? cli.run(["i3blocks", "--widget", "tech", "--config", configFile.path], environment: environment))?.stdout ?? ""
            return printed.hasPrefix("Central")
        }
        XCTAssertTrue(printed.hasPrefix("Central"), printed)
        XCTAssertTrue(FileManager.default.fileExists(atPath: runtime.appendingPathComponent("headlines-widget-tech").path))
        XCTAssertFalse(typoFolderExists)
    }
}
