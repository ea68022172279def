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


    /// Waits until the host has published the widget document (so no bar copy starts a host of
    /// its own meanwhile).
    private func waitForHost() {
        let path = cli.root.appendingPathComponent("runtime/headlines/bar/widget.json").path
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").contains("\"fresh\"") {
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// A default browser for http and https that appends each URL it is given to `opened`.
    func testOneHostServesEveryFormatWithOneRequestPerReloadAndAClickOpensTheKeyShown() throws {
        // Given one host
        try writeConfig(interval: "1h", dailyBudget: 10)
        let opened = cli.root.appendingPathComponent("opened.txt")
        let browser = try installFakeBrowser(opened: opened)
        _ = try startHost()
        waitForHost()

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
        XCTAssertEqual(followers["i3bar"]?.lines.first { $0.stream == .stdout }?.text, #"{"version":1,"click_events":true}"#)
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
        let open = try cli.run(["open", "--id", second["id"] as! String, "--config", configFile.path], environment: environment)
        XCTAssertEqual(open.status, 0, open.stderr)
        XCTAssertEqual(browserOpened(opened), "\(second["url"] as! String)\n")

        // And lemonbar's clicks, piped to `open --from-lemonbar`, open only `open KEY` lines
        let reader = Process()
        reader.executableURL = cli.executable
        reader.arguments = ["open", "--from-lemonbar", "--config", configFile.path]
        reader.environment = cli.environment(environment.merging(browser) { $1 })
        let input = Pipe(), errors = Pipe()
        reader.standardInput = input
        reader.standardError = errors
        reader.standardOutput = FileHandle.nullDevice
        try reader.run()
        let first = items[0]
        input.fileHandleForWriting.write(Data("; touch \(cli.root.path)/ran\nopen \(first["id"] as! String)\nopen \(first["id"] as! String) x\n".utf8))
        try input.fileHandleForWriting.close()
        let complaints = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        XCTAssertEqual(reader.terminationStatus, 0)
        XCTAssertEqual(complaints.components(separatedBy: "ignored a line from lemonbar that is not `open KEY`").count - 1, 2, complaints)
        XCTAssertEqual(browserOpened(opened, count: 2), "\(second["url"] as! String)\n\(first["url"] as! String)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.root.appendingPathComponent("ran").path))

        // And an id that names nothing is one sentence, not a browser
        let unknown = try cli.run(["open", "--id", "0123456789abcdef", "--config", configFile.path], environment: environment)
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.hasPrefix("headlines: no headline has the id 0123456789abcdef any more"), unknown.stderr)
        XCTAssertEqual(unknown.stderr.filter { $0 == "\n" }.count, 1, unknown.stderr)
    }

    func testTheWidgetDocumentNamesAThumbnailForEachHeadlineWithAnImage() throws {
        // Given three headlines, two with an image on the loopback server
        let base = server.baseURL.absoluteString
        let articles = (1...3).map { i in
            #"{"id":\#(i),"title":"Story \#(i)","href":"https://news.example.com/\#(i)","published_at":"2026-11-29T21:5\#(i):00Z","source":{"domain":"example.com"},"image":"\#(i == 2 ? "" : base + "/img\(i).png")"}"#
        }
        server.route(Self.path, .json(Data(#"{"status":"ok","results":[\#(articles.joined(separator: ","))]}"#.utf8)))
        let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAD0lEQVR4nGP4z8DA8J8BAAf/Af8Bf4mnAAAAAElFTkSuQmCC")!
        server.route("/img1.png", .respond(status: 200, headers: [:], body: png))
        server.route("/img3.png", .respond(status: 200, headers: [:], body: png))
        try writeConfig(interval: "1h", dailyBudget: 10)
        _ = try startHost()
        waitForHost()

        // When `headlines-bar json` follows the host
        let bar = try BackgroundProcess(executable: barBinary, arguments: ["json", "--config", configFile.path],
                                        environment: cli.environment(["APITUBE_API_KEY": Self.apiKey]))
        bars.append(bar)

        // Then a document comes whose items with an image name their thumbnail, and only those
        let line = bar.waitForLine(containing: "/thumbnails/", timeout: 20)
        let document = try XCTUnwrap(line?.text, "no document with a thumbnail:\n\(bar.transcript)")
        let items = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])?["items"] as? [[String: Any]])
        XCTAssertEqual(items.map { $0["title"] as? String }, ["Story 3", "Story 2", "Story 1"])
        XCTAssertEqual(items.map { $0["thumbnail"] is String }, [true, false, true], document)
        for item in items {
            if let path = item["thumbnail"] as? String { XCTAssertTrue(FileManager.default.fileExists(atPath: path), path) }
        }
    }

    func testAnI3blocksClickAfterARotationOpensWhatTheBlockPrinted() throws {
        // Given no host: the block's first run asks the bus for one, and a later run prints its line
        try writeConfig(interval: "1h", dailyBudget: 10)
        let opened = cli.root.appendingPathComponent("opened.txt")
        var environment = self.environment.merging(try installFakeBrowser(opened: opened)) { $1 }
        environment["BLOCK_NAME"] = "news"
        func block(_ extra: [String: String] = [:]) throws -> String {
            try cli.run(["i3blocks", "--config", configFile.path], environment: environment.merging(extra) { $1 }).stdout
        }
        XCTAssertTrue(try block().hasPrefix("headlines: starting the host"))

        // When the block prints a headline, then the bar turns to the next one
        var shown = ""
        _ = waitUntil(timeout: 15) { shown = (try? block()) ?? ""; return shown.hasPrefix("Central bank holds rates steady") }
        XCTAssertTrue(shown.hasPrefix("Central bank holds rates steady"), shown)
        XCTAssertEqual(try run(["next"]).status, 0)

        // Then a left click opens the headline the block printed, not the one now on display
        let clicked = try block(["BLOCK_BUTTON": "1"])
        XCTAssertFalse(clicked.hasPrefix("Central bank"), "the click's run prints the entry on display now: \(clicked)")
        let clickedOpen = browserOpened(opened)
        let first = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try run(["list", "--json"]).stdout.utf8)) as? [[String: Any]]).first
        XCTAssertEqual(clickedOpen, "\(first?["url"] as? String ?? "?")\n")
    }

    func testTheCLIHandsAFormatToTheBarProgramAndSaysWhatItCannotRun() throws {
        try writeConfig(interval: "1h", dailyBudget: 10)
        // `headlines tmux` is the bar program's: with no host, its own line in tmux's format, and
        // the bus asked for a host
        let tmux = try run(["tmux"])
        XCTAssertEqual(tmux.status, 0, tmux.stderr)
        XCTAssertEqual(tmux.stdout, "headlines: starting the host\n")
        XCTAssertNotNil(waitUntil(timeout: 10) { (try? bus.callHost("GetStatus", [""]))?.status == 0 }, "no host was started")
        // and an argument the bar program does not take is one sentence from it, never handed back
        let extra = try run(["polybar", "extra"])
        XCTAssertEqual(extra.status, 2)
        XCTAssertEqual(extra.stderr, "headlines-bar: unknown argument 'extra'; headlines-bar --help lists the formats.\n")
    }
}
