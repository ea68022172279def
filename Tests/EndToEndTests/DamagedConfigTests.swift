import Foundation
import TestSupport
import XCTest

/// A config file cut off, filled with garbage, unreadable or holding a bad value: `list`,
/// `status`, `fetch` and `run` each exit 2 at once with one sentence naming the file. An empty
/// one is all defaults: the commands work and the host starts.
final class DamagedConfigTests: EndToEndTestCase {
    private let good = "[source]\nprovider = apitube\ntimeout = 3s\n[refresh]\ninterval = 1s\ndaily-budget = 86400\n"

    /// `headlines --base-url SERVER ARGS` to its end; a host is stopped with SIGTERM once it has
    /// started (a bad config ends every command by itself). --base-url keeps an empty config (all
    /// defaults) off the real API.
    private func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: [String]) {
        let process = try BackgroundProcess(cli: cli, arguments: ["--base-url", server.baseURL.absoluteString] + arguments,
                                            environment: ["APITUBE_API_KEY": Self.apitubeKey])
        if arguments == ["run"], process.waitForLine(containing: "host started", timeout: 10) != nil { _ = process.send(SIGTERM) }
        let exit = try XCTUnwrap(process.waitForExit(timeout: 20), "headlines \(arguments) did not end: \(process.transcript)")
        XCTAssertFalse(exit.signalled, "headlines \(arguments) died of signal \(exit.status)")
        return (exit.status, process.lines.filter { $0.stream == .stdout }.map(\.text).joined(separator: "\n"),
                process.lines.filter { $0.stream == .stderr }.map(\.text))
    }

    func testAnEmptyConfigIsAllDefaults() throws {
        server.route(Self.apitubePath, .json(apitubeFixture))
        try cli.writeConfig("")
        for command in [["list", "--json"], ["status", "--json"], ["fetch"]] {
            let result = try run(command)
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
        }
        let host = try run(["run"])
        XCTAssertEqual(host.status, 0, "\(host.stderr)")
        XCTAssertTrue(host.stderr.contains { $0.contains("host started") }, "\(host.stderr)")
    }

    func testABrokenConfigEndsEveryCommandWithOneSentenceNamingIt() throws {
        let cases: [(String, Data?)] = [
            ("truncated", Data((good.split(separator: "\n").prefix(3).joined(separator: "\n") + "\n[refr").utf8)),
            ("garbage", Data([0, 0xFF, 0xFE] + Array(" garbage ".utf8) + [0x80, 0x81] + Array("{{{\n=====\n".utf8))),
            ("bad value", Data(good.replacingOccurrences(of: "interval = 1s", with: "interval = often").utf8)),
            ("unreadable", nil),
        ]
        for (how, bytes) in cases {
            let file = try cli.writeConfig(good)
            if let bytes { try bytes.write(to: file) } else { XCTAssertEqual(chmod(file.path, 0), 0) }
            cli.launcher = bytes == nil ? CLIRunner.fileModesBindEvenRoot : []
            for command in [["list", "--json"], ["status", "--json"], ["fetch"], ["run"]] {
                let result = try run(command)
                let situation = "config \(how), \(command[0])"
                XCTAssertEqual(result.status, 2, "\(situation): \(result.stderr)")
                XCTAssertEqual(result.stderr.count, 1, "\(situation): \(result.stderr)")
                let sentence = result.stderr.first ?? ""
                XCTAssertTrue(sentence.contains(file.path) && sentence.hasSuffix("."), "\(situation): \(sentence)")
                if how == "bad value" { XCTAssertTrue(sentence.contains("interval"), "\(situation): \(sentence)") }
                XCTAssertFalse(sentence.contains(Self.apitubeKey), situation)
            }
            cli.launcher = []
            try? FileManager.default.removeItem(at: file)
        }
    }
}
