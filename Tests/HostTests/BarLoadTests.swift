import BarFormats
import Foundation
import TestSupport
import XCTest

/// The host beside what bars do to it: a bar copy that stops reading its stdout, and a feed of
/// a megabyte rotated every second. The host keeps to its own work and its own bounds.
final class BarLoadTests: HostTestCase {
    /// An RSS feed of `count` headlines, newest first, each title padded to `titleBytes`.
    private func serveFeed(_ path: String, count: Int, titleBytes: Int) -> Int {
        let now = Date()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let items = (0..<count).map { i in
            let title = "Headline \(i) " + String(repeating: "x", count: max(0, titleBytes - 12))
            return "<item><title>\(title)</title><link>https://news.example.com/story/\(i)</link>"
                + "<guid isPermaLink=\"false\">story/\(i)</guid><pubDate>\(formatter.string(from: now.addingTimeInterval(Double(-60 * (i + 1)))))</pubDate></item>"
        }
        let body = Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\"><channel><title>Load</title>"
            + "<link>https://news.example.com/</link><description>rows</description>" + items.joined() + "</channel></rss>").utf8)
        server.route(path, .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: body))
        return body.count
    }

    /// The test's config on that one feed, with `bar` lines under `[bar]`.
    private func writeFeedConfig(_ path: String, bar: [String]) throws {
        try cli.writeConfig("""
            [source]
            provider = feeds
            feeds = \(server.baseURL.absoluteString)\(path)
            timeout = 10s

            [refresh]
            interval = 30m
            daily-budget = 1000

            [bar]
            \(bar.joined(separator: "\n"))

            """, at: configFile)
    }

    private func feedRequests(_ path: String) -> Int { server.requests.filter { $0.path == path }.count }

    func testABarCopyWhoseStdoutNobodyReadsLeavesTheHostReloadingAndStopping() throws {
        _ = serveFeed("/big-title.rss", count: 3, titleBytes: 100_000)
        try writeFeedConfig("/big-title.rss", bar: ["rotate = 1s", "max-length = 500"])
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 20)

        // A stopped bar: its end of the pipe is full from the start and never read.
        let pipe = Pipe()
        let writeEnd = pipe.fileHandleForWriting.fileDescriptor, readEnd = pipe.fileHandleForReading.fileDescriptor
        let flags = fcntl(writeEnd, F_GETFL)
        XCTAssertEqual(fcntl(writeEnd, F_SETFL, flags | O_NONBLOCK), 0)
        let chunk = [UInt8](repeating: 0, count: 4096)
        while chunk.withUnsafeBytes({ write(writeEnd, $0.baseAddress, $0.count) }) > 0 {}
        // The copy gets the pipe as a bar hands it over, blocking.
        XCTAssertEqual(fcntl(writeEnd, F_SETFL, flags), 0)
        let capacity = fcntl(readEnd, 1032) // F_GETPIPE_SZ, which Glibc's module does not export
        let copy = Process()
        copy.executableURL = cli.executable
        copy.arguments = ["waybar", "--config", configFile.path]
        copy.environment = cli.environment(environment)
        copy.standardOutput = pipe.fileHandleForWriting
        copy.standardError = FileHandle.nullDevice
        try copy.run()
        defer { if copy.isRunning { kill(copy.processIdentifier, SIGKILL); copy.waitUntilExit() } }
        let waybarLine = folderFile("bar/waybar")
        XCTAssertNotNil(waitUntil(timeout: 10) { ((try? Data(contentsOf: waybarLine))?.count ?? 0) > 0 }, host.transcript)
        Thread.sleep(forTimeInterval: 2) // two rotations with a line the copy cannot write
        var queued: Int32 = 0
        XCTAssertEqual(ioctl(readEnd, UInt(FIONREAD), &queued), 0)
        XCTAssertEqual(Int(queued), Int(capacity), "the bar's pipe is not full, so this is not the stuck bar it means to be")
        XCTAssertTrue(copy.isRunning, "the copy is gone, so it cannot be stuck")

        // The host still reloads when asked and stops on SIGTERM.
        let before = feedRequests("/big-title.rss")
        let refresh = try run(["refresh"])
        XCTAssertEqual(refresh.status, 0, refresh.stdout + refresh.stderr)
        XCTAssertGreaterThan(feedRequests("/big-title.rss"), before, "refresh made no request; the host printed:\n\(host.transcript)")
        assertStopsQuickly(host, "with a bar copy nobody reads")
    }

    func testAMegabyteOfFiveHundredHeadlinesStaysInsideWhatBarsReadAndTheHostsMemory() throws {
        let size = serveFeed("/big.rss", count: 500, titleBytes: 1900)
        XCTAssertGreaterThan(size, 1_000_000)
        try writeFeedConfig("/big.rss", bar: ["rotate = 1s"])
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 60)
        let document = folderFile("bar/widget.json")
        XCTAssertNotNil(waitUntil(timeout: 10) { ((try? Data(contentsOf: document))?.count ?? 0) > 0 }, host.transcript)
        Thread.sleep(forTimeInterval: 2) // two rotations

        let written = try Data(contentsOf: document).count
        XCTAssertLessThanOrEqual(written, BarFormat.json.maxFileBytes, "widget.json is more than headlines-bar reads")
        let status = try String(contentsOfFile: "/proc/\(host.pid)/status", encoding: .utf8)
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
            .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) }
        XCTAssertNotNil(peak, status)
        XCTAssertLessThan(peak ?? .max, 100 * 1024, "the host's peak resident memory, in kB")

        // A one-shot block shows the headline the host shows, from its ready-made file.
        let block = try runBar(["i3blocks"], extra: environment)
        let lines = block.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 4, block)
        XCTAssertTrue(lines.first?.hasPrefix("Headline ") == true, block)
        assertStopsQuickly(host, "after 500 headlines")
    }

    private func folderFile(_ name: String) -> URL { cli.root.appendingPathComponent("runtime/headlines/" + name) }
}
