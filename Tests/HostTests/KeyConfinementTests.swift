import Foundation
import TestSupport
import XCTest

/// Where the API key may be: in the environment of the host and its reload child, and in the
/// X-API-Key header of their requests. Never in a process's argv, a log line, an output, a file,
/// a URL; and what a server echoes of it comes back redacted.
final class KeyConfinementTests: HostTestCase {
    /// The command lines of every process, by pid.
    private func commandLines() -> [String: String] {
        var lines: [String: String] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int32(entry) != nil {
            guard let raw = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"), !raw.isEmpty else { continue }
            lines[entry] = String(decoding: raw.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
        }
        return lines
    }

    func testTheKeyIsInNoProcesssArgv() throws {
        // Given a host whose second reload hangs (so its reload child stays alive), a waybar copy,
        // and a `headlines fetch` that hangs too
        server.route(Self.path, .sequence([.json(fixture), .neverAnswer]))
        try writeConfig(interval: "2s", dailyBudget: 86400, timeout: "20s")
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)
        _ = try startBackground(["waybar"])
        _ = try startBackground(["fetch"])

        // When every process's argv is read while all of them run
        let wanted = ["headlines-host ", "headlines-bar waybar", "headlines-reload --config", "headlines-fetch fetch --config"]
        var seen = Set<String>(), leaks: [String] = []
        _ = waitUntil(timeout: 15, poll: 0.05) {
            for (pid, line) in commandLines() {
                if line.contains(Self.apiKey) { leaks.append("\(pid): \(line)") }
                guard line.contains(cli.root.path) else { continue }
                for program in wanted where line.contains(program) { seen.insert(program) }
            }
            return seen.count == wanted.count
        }

        // Then each was seen, and none had the key
        XCTAssertEqual(seen, Set(wanted), "not every process was seen; the host printed:\n\(host.transcript)")
        XCTAssertEqual(leaks, [])
    }

    func testTheKeyIsOnlyInTheHeaderAndWhatAServerEchoesOfItIsRedacted() throws {
        // Given a server whose 401 repeats the key it was sent, after one good answer
        let echo = #"{"status":"not_ok","errors":[{"status":401,"code":"ER0175","message":"Invalid API key: \#(Self.apiKey)"}]}"#
        try writeConfig(interval: "1h", dailyBudget: 86400)
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)
        let bar = try startBackground(["waybar"])
        server.route(Self.path, .json(Data(echo.utf8), status: 401))

        // When the CLI fetches, the host reloads over the bus, and the other commands run
        var outputs: [String] = []
        for command in [["fetch"], ["refresh"], ["status"], ["status", "--json"], ["list"], ["list", "--json"]] {
            let result = try run(command)
            outputs += [result.stdout, result.stderr]
        }
        let mark = host.mark
        try reloadOverBus()
        let failed = try expectLine("reload failed", from: host, after: mark, within: 10)

        // Then the echo shows "[redacted]" in the fetch's message and the host's log
        XCTAssertTrue(outputs[1].contains("Invalid API key: [redacted]"), "fetch said: \(outputs[1])")
        XCTAssertTrue(failed.text.contains("Invalid API key: [redacted]"), failed.text)
        // and the key is in no output, no log line and no file
        outputs += [host.transcript, bar.transcript]
        for text in outputs { XCTAssertFalse(text.contains(Self.apiKey), "the key was printed:\n\(text)") }
        let walker = FileManager.default.enumerator(at: cli.root, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            XCTAssertNil(data.range(of: Data(Self.apiKey.utf8)), "\(url.path) holds the key")
        }
        // and every request carried it in X-API-Key, in no other header and not in the URL
        let requests = server.requests
        XCTAssertGreaterThanOrEqual(requests.count, 4, "\(requests)")
        for request in requests {
            XCTAssertEqual(request.header("x-api-key"), Self.apiKey, "\(request)")
            XCTAssertFalse(request.target.contains(Self.apiKey), "the key is in the URL \(request.target)")
            for (name, value) in request.headers where name != "x-api-key" {
                XCTAssertFalse(value.contains(Self.apiKey), "the key is in the header \(name)")
            }
        }
    }

    func testFilesAre0600InFolders0700WhateverTheUmask() throws {
        // Given the config written as usual, then every process of the test started under umask 000
        try writeConfig(interval: "1h", dailyBudget: 86400)
        let saved = umask(0)
        defer { umask(saved) }
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)
        _ = try startBackground(["waybar"])
        for command in [["fetch"], ["refresh"], ["status"], ["list"], ["next"], ["mute", "Example Source"], ["unmute", "Example Source"]] {
            _ = try run(command)
        }
        umask(saved)
        XCTAssertEqual(terminate(host).exit?.status, 0)

        // Then everything they made is 0600, in folders 0700
        var files = 0, wrong: [String] = []
        for home in [cli.cacheHome, cli.stateHome, cli.root.appendingPathComponent("runtime")] {
            let top = home.appendingPathComponent("headlines")
            let walker = FileManager.default.enumerator(at: top, includingPropertiesForKeys: nil)
            for url in [top] + (walker?.allObjects as? [URL] ?? []) {
                let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
                let mode = (attributes[.posixPermissions] as? Int ?? 0) & 0o777
                let folder = attributes[.type] as? FileAttributeType == .typeDirectory
                if !folder { files += 1 }
                if mode != (folder ? 0o700 : 0o600) { wrong.append("\(String(mode, radix: 8)) \(url.path)") }
            }
        }
        XCTAssertGreaterThanOrEqual(files, 5, "too few files to judge")
        XCTAssertEqual(wrong, [])
    }
}
