import Foundation
import TestSupport
import XCTest

/// How a running host takes a config change: it says "SIGHUP" only for a SIGHUP and "config
/// file saved" for a save, logs a change to one widget's group under that widget alone, and
/// serves the first [widget] groups once the file is saved, with no restart by the user.
final class ConfigSavedWordsTests: HostTestCase {
    private func feed(_ title: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>\(title)</title>
            <item><title>\(title) one</title><link>https://\(title.lowercased()).example/1</link><guid>\(title)-1</guid></item>
            </channel></rss>
            """.utf8)
    }

    private func config(_ widgets: String, keywords: String = "") -> String {
        server.route("/world.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: feed("World")))
        server.route("/tech.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: feed("Tech")))
        return """
            [source]
            provider=feeds
            feeds=\(server.baseURL.absoluteString)/world.rss
            [refresh]
            interval=1h
            daily-budget=48
            [notify]
            enabled=false
            \(keywords)
            \(widgets)

            """
    }

    func testASIGHUPAndASavedFileAreToldApart() throws {
        // Given a host without widget groups
        try cli.writeConfig(config(""), at: configFile)
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)

        // When it gets SIGHUP, then the log says SIGHUP
        var mark = host.mark
        host.send(SIGHUP)
        try expectLine("SIGHUP: configuration re-read", from: host, after: mark, within: 5)

        // When the file is saved with new keywords, then the log says the file was saved, not SIGHUP
        mark = host.mark
        try Data(config("", keywords: "keywords = storm").utf8).write(to: configFile, options: .atomic)
        try expectLine("config file saved: configuration re-read", from: host, after: mark, within: 5)
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertTrue(host.lines(containing: "SIGHUP", after: mark).isEmpty, host.transcript)
    }

    func testAChangeToOneWidgetIsLoggedUnderThatWidgetOnly() throws {
        // Given a host serving [widget tech] and [widget world]
        let widgets = "[widget tech]\nfeeds=\(server.baseURL.absoluteString)/tech.rss\n[widget world]\n"
        try cli.writeConfig(config(widgets), at: configFile)
        let host = try startHost()
        try expectLine("serving 2 widgets: tech, world", from: host, within: 10)
        try expectLine("[world] next reload at", from: host, within: 10)
        try expectLine("[tech] next reload at", from: host, within: 10)

        // When only [widget world] changes
        let mark = host.mark
        try Data(config(widgets + "max-length=30\n").utf8).write(to: configFile, options: .atomic)

        // Then the change is logged under [world], and nothing under [tech]
        try expectLine("[world] config file saved: configuration re-read", from: host, after: mark, within: 5)
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertTrue(host.lines(containing: "[tech] config file saved", after: mark).isEmpty, host.transcript)
        XCTAssertTrue(host.lines(containing: "[tech] ", after: mark).filter { $0.text.contains("configuration") }.isEmpty, host.transcript)
    }

    func testTheFirstWidgetGroupsTakeEffectWhenTheFileIsSaved() throws {
        // Given a host without widget groups
        try cli.writeConfig(config(""), at: configFile)
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)

        // When [widget tech] and [widget world] are added and the file saved
        let mark = host.mark
        let widgets = "[widget tech]\nfeeds=\(server.baseURL.absoluteString)/tech.rss\n[widget world]\n"
        try Data(config(widgets).utf8).write(to: configFile, options: .atomic)

        // Then the same process serves both, and the tech widget's bar shows its feed
        try expectLine("starting again to serve them", from: host, after: mark, within: 5)
        try expectLine("serving 2 widgets: tech, world", from: host, after: mark, within: 10)
        XCTAssertTrue(host.isRunning, host.transcript)
        let techBar = cli.root.appendingPathComponent("runtime/headlines-widget-tech/bar/i3blocks-keyed").path
        XCTAssertNotNil(waitUntil(timeout: 10) { ((try? String(contentsOfFile: techBar, encoding: .utf8)) ?? "").contains("Tech one") },
                        host.transcript)
    }
}
