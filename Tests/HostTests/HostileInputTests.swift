import Foundation
import TestSupport
import XCTest

/// What a user, a stray script or another process can throw at the host: a huge turn, a
/// scroll-steps file near Int.max, the old reload signal, a cache renamed into place that holds
/// links no browser should open.
final class HostileInputTests: HostTestCase {
    func testAHugeTurnThenAnotherExitZeroWithAndWithoutAHostRunning() throws {
        try writeConfig(interval: "1h", dailyBudget: 10)
        // No host: the bus starts one for the first call
        for arguments in [["next", "9223372036854775807"], ["next"], ["prev", "9223372036854775807"], ["next"]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(try bus.callHost("GetEntry", [""]).status, 0, "the host died")
    }

    func testAScrollStepsCounterNearIntMaxDoesNotCrashTheBar() throws {
        try writeConfig(interval: "1h", dailyBudget: 10)
        _ = try startHost()
        let folder = cli.root.appendingPathComponent("runtime/headlines")
        XCTAssertNotNil(waitUntil(timeout: 10) { FileManager.default.fileExists(atPath: folder.appendingPathComponent("host.lock").path) })
        try Data("9223372036854775806".utf8).write(to: folder.appendingPathComponent("scroll-steps"))
        for arguments in [["next"], ["next", "9223372036854775807"], ["prev"]] {
            let bar = Process()
            bar.executableURL = barBinary
            bar.arguments = arguments + ["--config", configFile.path]
            bar.environment = cli.environment(environment)
            try bar.run()
            bar.waitUntilExit()
            XCTAssertEqual(bar.terminationReason, .exit, "\(arguments)")
            XCTAssertEqual(bar.terminationStatus, 0, "\(arguments)")
        }
    }

    func testSIGUSR1AsksForAReloadAndLeavesTheHostRunning() throws {
        try writeConfig(interval: "1h", dailyBudget: 10)
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)
        let mark = host.mark
        host.send(SIGUSR1)
        try expectLine("SIGUSR1: reloading now", from: host, after: mark, within: 5)
        XCTAssertTrue(host.isRunning, host.transcript)
    }

    func testATamperedCachesOtherLinksReachNeitherTheBusNorTheBrowser() throws {
        // Given a fresh cache another process wrote, whose links are not all http(s): the host shows
        // it at start, with no reload
        try writeConfig(interval: "1h", dailyBudget: 10)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let now = formatter.string(from: Date())
        let planted = ["javascript:alert(1)", "file:///etc/passwd", "data:text/plain,x", "https://fine.example/ok"]
        let items = planted.enumerated().map { i, link in
            #"{"id":"p\#(i)","title":"Planted \#(i)","url":"\#(link)","source":"evil.example","publishedAt":"\#(now)"}"#
        }
        let cache = cli.cacheHome.appendingPathComponent("headlines/headlines.json")
        try FileManager.default.createDirectory(at: cache.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"version":1,"provider":"APITube","fetchedAt":"\#(now)","headlines":[\#(items.joined(separator: ","))]}"#.utf8)
            .write(to: cache)

        // When the host runs
        let host = try startHost()
        XCTAssertNotNil(waitUntil(timeout: 10) { ((try? self.bus.callHost("GetHeadlines", [""]))?.output ?? "").contains("fine.example") },
                        host.transcript)

        // Then what its bus hands out holds none of the other links, and the http one
        let headlines = try bus.callHost("GetHeadlines", [""]).output
        let entry = try bus.callHost("GetEntry", [""]).output
        let listed = try bus.callHost("ListHeadlines", [""]).output
        for text in [headlines, entry, listed] {
            for link in planted.dropLast() { XCTAssertFalse(text.contains(link), "\(link) handed out: \(text)") }
        }
        XCTAssertTrue(headlines.contains("https://fine.example/ok"), headlines)

        // And the CLI reads the same cache the same way: what `list` numbers, and so what
        // `open N` opens, is the http link alone
        let opened = cli.root.appendingPathComponent("opened.txt")
        _ = try installFakeBrowser(opened: opened)
        let (urls, list) = try listedAfterReload()
        XCTAssertEqual(urls, ["https://fine.example/ok"], list.stdout + list.stderr)
        XCTAssertEqual(try run(["open", "1"]).status, 0)
        XCTAssertEqual(browserOpened(opened), "https://fine.example/ok\n")
        XCTAssertEqual(try run(["open", "2"]).status, 2, "a second headline was there to open")
    }

    func testMutedSourcesAreBoundedInSizeAndNumber() throws {
        try writeConfig(interval: "1h", dailyBudget: 10)
        // 200 muted sources, the most there may be, and one over-long one a file may hold
        let muted = cli.stateHome.appendingPathComponent("headlines/muted.json")
        try FileManager.default.createDirectory(at: muted.deletingLastPathComponent(), withIntermediateDirectories: true)
        let sources = (0..<200).map { "\"source-\($0)\"" } + ["\"" + String(repeating: "z", count: 5000) + "\""]
        try Data("{\"sources\":[\(sources.joined(separator: ","))]}".utf8).write(to: muted)
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)
        // A source longer than any headline's is refused on the bus and by the CLI
        let long = String(repeating: "x", count: 100_000)
        let call = try bus.callHost("Mute", [long])
        XCTAssertNotEqual(call.status, 0)
        XCTAssertTrue(call.output.contains("a source is 1 to 4096 bytes"), call.output)
        let cli = try run(["mute", String(repeating: "y", count: 5000)])
        XCTAssertEqual(cli.status, 2, cli.stderr)
        // and past 200 sources, one more is refused, saying how to make room; the over-long one
        // in the file was not taken in
        XCTAssertEqual(try run(["muted"]).stdout.split(separator: "\n").count, 200)
        let more = try bus.callHost("Mute", ["one-too-many"])
        XCTAssertNotEqual(more.status, 0)
        XCTAssertTrue(more.output.contains("200 sources are muted already"), more.output)
        XCTAssertTrue(host.isRunning)
    }

    func testAFloodOfLemonbarClicksStartsAHandfulOfBrowsersAndSaysSoOnce() throws {
        try writeConfig(interval: "1h", dailyBudget: 10)
        let opened = cli.root.appendingPathComponent("opened.txt")
        _ = try installFakeBrowser(opened: opened)
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)
        let document = cli.root.appendingPathComponent("runtime/headlines/bar/widget.json")
        func firstKey() -> String? {
            guard let data = try? Data(contentsOf: document),
                  let items = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["items"] as? [[String: Any]] else { return nil }
            return items.first?["id"] as? String
        }
        XCTAssertNotNil(waitUntil(timeout: 5) { firstKey() != nil })
        let key = try XCTUnwrap(firstKey())

        // 200 valid clicks in well under a second
        let reader = Process()
        reader.executableURL = cli.executable
        reader.arguments = ["open", "--from-lemonbar", "--config", configFile.path]
        reader.environment = cli.environment(environment)
        let input = Pipe(), errors = Pipe()
        reader.standardInput = input
        reader.standardError = errors
        reader.standardOutput = FileHandle.nullDevice
        try reader.run()
        input.fileHandleForWriting.write(Data(String(repeating: "open \(key)\n", count: 200).utf8))
        try input.fileHandleForWriting.close()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        Thread.sleep(forTimeInterval: 1)

        let browsers = ((try? String(contentsOf: opened, encoding: .utf8)) ?? "").split(separator: "\n").count
        XCTAssertGreaterThanOrEqual(browsers, 1)
        XCTAssertLessThanOrEqual(browsers, 8, "200 clicks started \(browsers) browsers")
        XCTAssertEqual(said.components(separatedBy: "dropping clicks from lemonbar").count - 1, 1, said)
    }
}
