import Foundation
import TestSupport
import XCTest

/// One real host serving every bar format at once: seven kinds of `headlines-bar` followers and
/// the periodic formats all show the host's headline, the host alone fetches (one request per
/// reload however many followers run), and a click's `headlines open --id KEY` opens that
/// headline through the default browser (a fake one that writes down the URL it was given).
final class BarFormatsEndToEndTests: HostTestCase {
    private var bars: [BackgroundProcess] = []

    override func tearDown() {
        for bar in bars { bar.kill() }
        bars = []
        super.tearDown()
    }

    private var barBinary: URL { cli.executable.deletingLastPathComponent().appendingPathComponent("headlines-bar") }

    private func runBar(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = barBinary
        process.arguments = arguments + ["--config", configFile.path]
        process.environment = cli.environment()
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    /// A default browser for http and https that appends each URL it is given to `opened`.
    private func installFakeBrowser(opened: URL) throws -> [String: String] {
        let data = cli.root.appendingPathComponent("data")
        let applications = data.appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        let script = cli.root.appendingPathComponent("fake-browser")
        try "#!/bin/sh\necho \"$1\" >> \(opened.path)\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        try """
            [Desktop Entry]
            Type=Application
            Name=Fake Browser
            Exec=\(script.path) %u
            MimeType=x-scheme-handler/http;x-scheme-handler/https;
            """.write(to: applications.appendingPathComponent("fake-browser.desktop"), atomically: true, encoding: .utf8)
        try "[Default Applications]\nx-scheme-handler/http=fake-browser.desktop\nx-scheme-handler/https=fake-browser.desktop\n"
            .write(to: cli.configHome.appendingPathComponent("mimeapps.list"), atomically: true, encoding: .utf8)
        return ["XDG_DATA_HOME": data.path, "XDG_DATA_DIRS": data.path]
    }

    func testOneHostServesEveryFormatWithOneRequestPerReloadAndAClickOpensTheKeyShown() throws {
        // Given one host
        try writeConfig(interval: "1h", dailyBudget: 10)
        _ = try startHost()

        // When seven kinds of continuous bar copies follow it
        let title = "Central bank holds rates steady"
        var followers: [String: BackgroundProcess] = [:]
        for format in ["waybar", "i3bar", "polybar", "yambar", "xmobar", "lemonbar", "json"] {
            let bar = try BackgroundProcess(executable: barBinary, arguments: [format, "--config", configFile.path],
                                            environment: cli.environment(["APITUBE_API_KEY": Self.apiKey]))
            bars.append(bar)
            followers[format] = bar
        }

        // Then each shows the host's headline in its own format
        for (format, bar) in followers {
            XCTAssertNotNil(bar.waitForLine(containing: title, timeout: 20), "headlines-bar \(format) printed:\n\(bar.transcript)")
        }
        XCTAssertEqual(followers["i3bar"]?.lines.first?.text, #"{"version":1,"click_events":true}"#)
        XCTAssertTrue(followers["polybar"]!.lines(containing: title).first!.text.hasPrefix("%{A1:headlines open --id "))

        // And so do the periodic formats, each run once
        for format in ["tmux", "genmon", "argos", "plain", "conky"] {
            XCTAssertTrue(try runBar([format]).contains(title), "headlines-bar \(format)")
        }

        // And the host alone fetched: one request for the first reload
        XCTAssertEqual(server.requests.filter { $0.path == Self.path }.count, 1, "\(server.requests)")

        // And a reload makes one more request, whatever number of followers run
        let refreshed = try run(["refresh"])
        XCTAssertEqual(refreshed.status, 0, refreshed.stdout + refreshed.stderr)
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(server.requests.filter { $0.path == Self.path }.count, 2, "\(server.requests)")

        // And the widget document names each item's key; open --id opens that item
        let document = try XCTUnwrap(followers["json"]!.lines(containing: title).last?.text)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
        XCTAssertEqual(object["stale"] as? Bool, false)
        XCTAssertNotNil(object["updated_at"] as? String, document)
        let items = try XCTUnwrap(object["items"] as? [[String: Any]])
        let second = items[1]
        let opened = cli.root.appendingPathComponent("opened.txt")
        let browser = try installFakeBrowser(opened: opened)
        let open = try cli.run(["open", "--id", second["id"] as! String, "--config", configFile.path], environment: browser)
        XCTAssertEqual(open.status, 0, open.stderr)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !FileManager.default.fileExists(atPath: opened.path) { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertEqual(try? String(contentsOf: opened, encoding: .utf8), "\(second["url"] as! String)\n")

        // And an id that names nothing is one sentence, not a browser
        let unknown = try cli.run(["open", "--id", "0123456789abcdef", "--config", configFile.path], environment: browser)
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.hasPrefix("headlines: no headline has the id 0123456789abcdef any more"), unknown.stderr)
        XCTAssertEqual(unknown.stderr.filter { $0 == "\n" }.count, 1, unknown.stderr)
    }
}
