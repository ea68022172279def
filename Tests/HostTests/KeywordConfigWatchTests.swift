import Foundation
import TestSupport
import XCTest

/// Keywords and mute-words "apply at once, like mute": a running host sees its config
/// file edited (in place, or replaced by a rename as editors do) and republishes the bar lines,
/// with no SIGHUP and no restart.
final class KeywordConfigWatchTests: HostTestCase {
    private var waybarFile: URL { cli.root.appendingPathComponent("runtime/headlines/bar/waybar") }

    /// The host's published waybar line, decoded.
    private func waybar() -> (text: String, classes: [String])? {
        guard let data = try? Data(contentsOf: waybarFile),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let text = object["text"] as? String else { return nil }
        return (text, object["class"] as? [String] ?? [])
    }

    private func config(_ notify: String) -> String {
        """
        [source]
        provider=apitube
        base-url=\(server.baseURL.absoluteString)
        timeout=10s

        [refresh]
        interval=1h
        daily-budget=10

        [notify]
        enabled=false
        \(notify)

        """
    }

    func testEditingKeywordsAndMuteWordsChangesThePublishedBarLineAtOnce() throws {
        // Given a host that reloaded, with no keywords: the bar line has no `match` class
        try cli.writeConfig(config(""), at: configFile)
        let host = try startHost()
        try expectLine("reload ok", from: host, within: 10)
        XCTAssertNotNil(waitUntil(timeout: 5) { waybar()?.classes.contains("fresh") ?? false }, "no fresh waybar line published")
        let shown = try XCTUnwrap(waybar())
        XCTAssertFalse(shown.classes.contains("match"), "\(shown)")
        let word = try XCTUnwrap(shown.text.split(whereSeparator: { !$0.isLetter }).first.map(String.init))

        // When the config is edited in place to name a word of the headline on display
        try Data(config("keywords = nothing-here; \"\(word.uppercased())\"").utf8).write(to: configFile)

        // Then within a few seconds the published line carries `match`, with no new request
        let requests = requestCount
        XCTAssertNotNil(waitUntil(timeout: 5) { waybar()?.classes.contains("match") ?? false },
                        "no `match` class after the keywords changed: \(String(describing: waybar()))\n\(host.transcript)")
        XCTAssertEqual(waybar()?.text, shown.text)

        // When the config is replaced by a rename, muting that word
        try Data(config("mute-words = \(word.lowercased())").utf8).write(to: configFile, options: .atomic)

        // Then the headline leaves the bar, and the keyword mark with it
        XCTAssertNotNil(waitUntil(timeout: 5) { waybar().map { $0.text != shown.text } ?? false },
                        "the muted headline is still on the bar: \(String(describing: waybar()))\n\(host.transcript)")
        XCTAssertFalse(waybar()?.classes.contains("match") ?? true)
        XCTAssertFalse(waybar()?.text.lowercased().contains(word.lowercased()) ?? true)
        XCTAssertEqual(requestCount, requests, "a keyword change costs no request")
        assertStopsQuickly(host, "after config edits")
    }
}
