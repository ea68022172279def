import BarFormats
import Foundation
import HeadlinesCore
import TestSupport
import XCTest

/// Every `headlines-bar FORMAT` output, read back by a checker of that host's grammar, with
/// hostile titles: no title may open a tag, an action, a style, an attribute or a new line, and
/// every click names the key of the headline shown.
final class BarFormatGrammarTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private var zone: TimeZoneOverride?
    override func setUp() { zone = TimeZoneOverride("UTC0") }
    override func tearDown() { zone?.restore() }

    static let hostileTitles = [
        "Tom & Jerry <b>bold</b> &amp; </txt><txtclick>rm -rf ~</txtclick>",
        "%{A1:rm -rf ~:}click%{A} %{F#ff0000}red %%{",
        "ends in a percent sign: 100%",
        "#[fg=red]styled #(rm -rf ~) ## #{host}",
        "a | href=file:///etc/passwd bash='rm -rf ~' | b",
        "<raw=3:abc/><action=`rm -rf ~` button=1>x</action><fc=red>",
        "$HOME ${exec rm -rf ~} $$ \\ \" ` '",
        "line one\nline two\r\u{1B}[31mred\u{1B}[0m\u{07}\u{0}\u{202E}evil\u{2028}",
        "---",
        "-- a submenu line",
        String(repeating: "100 KB title & < %{ #[ | ", count: 4200),
    ]

    private func state(_ titles: [String], index: Int = 0, freshness: Freshness = .fresh,
                       source: String = "Src | & <x> %{ #[ $") -> BarState {
        BarState(headlines: titles.enumerated().map { i, t in
            Headline(id: "https://example.com/\(i)?q=\(t.prefix(40))", title: t, url: URL(string: "https://example.com/\(i)")!,
                     source: source, publishedAt: now.addingTimeInterval(-600))
        }, index: index, freshness: freshness, budgetUsed: 3, budgetLimit: 48)
    }

    private func render(_ format: BarFormat, _ state: BarState, widget: String? = nil) -> String {
        FormatLines.render(format, state, FormatLines.Context(now: now, maxLength: 80, widget: widget))!
    }

    private func key(_ state: BarState) -> String { HeadlineKey.of(id: state.current!.id) }

    private func eachHostileState(_ body: (BarState, String) throws -> Void) rethrows {
        for (i, title) in Self.hostileTitles.enumerated() {
            try body(state(Self.hostileTitles, index: i), "title \(i): \(title.prefix(60))")
        }
        try body(state([]), "no headlines")
        try body(state(["stale & <old>"], freshness: .stale), "stale")
        try body(state(["a source that ends in a percent sign"], source: "up 100%"), "text ending in %")
    }

    /// One line (the only newline at its end), no control characters.
    private func assertOneLine(_ s: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(s.hasSuffix("\n"), message, file: file, line: line)
        XCTAssertEqual(s.unicodeScalars.filter { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{2028}" }.count, 1,
                       "one newline, no other control character: \(message)", file: file, line: line)
        XCTAssertLessThan(s.utf8.count, 8192, message, file: file, line: line)
    }

    /// Pango text with no tags: every `<` and `>` escaped, every `&` an entity.
    private func assertPangoText(_ s: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(s.contains("<") || s.contains(">"), "\(message): \(s.prefix(200))", file: file, line: line)
        var rest = Substring(s)
        while let amp = rest.firstIndex(of: "&") {
            let after = rest[amp...]
            XCTAssertTrue(after.hasPrefix("&amp;") || after.hasPrefix("&lt;") || after.hasPrefix("&gt;"),
                          "\(message): bare & in \(s.prefix(200))", file: file, line: line)
            rest = rest[rest.index(after: amp)...]
        }
    }

    /// polybar and lemonbar: the tags in `s` (everything between `%{` and `}`), in order.
    private func percentTags(_ s: String) -> [String] {
        var tags: [String] = []
        var rest = Substring(s)
        while let start = rest.range(of: "%{") {
            var i = start.upperBound
            var tag = ""
            // An action's command may hold `\:` and `\}`; a tag ends at the first unescaped `}`.
            while i < rest.endIndex, rest[i] != "}" {
                if rest[i] == "\\", rest.index(after: i) < rest.endIndex { tag.append(rest[i]); i = rest.index(after: i) }
                tag.append(rest[i])
                i = rest.index(after: i)
            }
            tags.append(tag)
            rest = i < rest.endIndex ? rest[rest.index(after: i)...] : ""
        }
        return tags
    }

    /// lemonbar's tags: `%%` is a literal `%` (checked with the real lemonbar), `%{…}` a tag.
    private func lemonbarTags(_ s: String) -> [String] {
        var tags: [String] = []
        var rest = Substring(s)
        while let percent = rest.firstIndex(of: "%") {
            let next = rest.index(after: percent)
            guard next < rest.endIndex else { break }
            if rest[next] == "%" { rest = rest[rest.index(after: next)...]; continue }
            guard rest[next] == "{", let close = rest[next...].firstIndex(of: "}") else { rest = rest[next...]; continue }
            tags.append(String(rest[rest.index(after: next)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return tags
    }

    func testI3barBlocksAreOneJSONArrayWithTheKeyAsInstance() throws {
        try eachHostileState { state, message in
            let out = render(.i3bar, state)
            assertOneLine(out, message)
            let blocks = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]], message)
            XCTAssertEqual(blocks.count, 1, message)
            XCTAssertEqual(blocks[0]["markup"] as? String, "none", message)
            XCTAssertEqual(blocks[0]["name"] as? String, "headlines", message)
            XCTAssertEqual(blocks[0]["instance"] as? String, state.current.map { HeadlineKey.of(id: $0.id) } ?? "", message)
            XCTAssertFalse((blocks[0]["full_text"] as? String ?? "").isEmpty, message)
        }
        XCTAssertEqual(BarFormat.i3bar.streamHeader, "{\"version\":1,\"click_events\":true}\n[\n")
    }

    func testPolybarHasOnlyTheOpenActionAndColourTags() {
        eachHostileState { state, message in
            let out = render(.polybar, state, widget: "world")
            assertOneLine(out, message)
            var expected: [String] = []
            if let current = state.current { expected.append("A1:headlines open --id \(HeadlineKey.of(id: current.id)) --widget world:") }
            if state.stateName != "fresh" { expected += ["F\(BarColors.error)", "F-"].map { state.stateName == "stale" ? $0.replacingOccurrences(of: BarColors.error, with: BarColors.stale) : $0 } }
            if state.current != nil { expected.append("A") }
            XCTAssertEqual(percentTags(out), expected, "\(message): \(out.prefix(300))")
        }
    }

    func testLemonbarHasOnlyTheOpenKeyActionAndColourTags() {
        eachHostileState { state, message in
            let out = render(.lemonbar, state)
            assertOneLine(out, message)
            var expected: [String] = []
            if let current = state.current { expected.append("A:open \(HeadlineKey.of(id: current.id)):") }
            if state.stateName != "fresh" { expected += ["F\(state.stateName == "stale" ? BarColors.stale : BarColors.error)", "F-"] }
            if state.current != nil { expected.append("A") }
            XCTAssertEqual(lemonbarTags(out), expected, "\(message): \(out.prefix(300))")
        }
    }

    func testYambarSetsAreTypedLinesEndedByOneEmptyLine() {
        eachHostileState { state, message in
            let out = render(.yambar, state)
            XCTAssertTrue(out.hasSuffix("\n\n"), message)
            let lines = out.dropLast(2).split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertEqual(lines.map { $0.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)[0] },
                           ["text", "title", "source", "state", "id", "new", "match", "budget"], message)
            for line in lines {
                let parts = line.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
                XCTAssertEqual(parts.count, 3, "\(message): \(line.prefix(100))")
                XCTAssertTrue(["string", "bool", "range:0-100"].contains(String(parts[1])), message)
                XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 }, message)
                if parts[1] == "bool" { XCTAssertTrue(["true", "false"].contains(String(parts[2])), message) }
            }
            XCTAssertEqual(String(lines[4].dropFirst(10)), state.current.map { HeadlineKey.of(id: $0.id) } ?? "", message)
        }
    }

    func testTmuxDoublesEveryHashSoNoStyleOrCommandRuns() {
        eachHostileState { state, message in
            let out = render(.tmux, state)
            assertOneLine(out, message)
            // tmux reads `##` as `#`; any other `#` would start a style, a format or a command.
            var scalars = Array(out.unicodeScalars)[...]
            var shown = ""
            while let c = scalars.first {
                scalars = scalars.dropFirst()
                if c == "#" {
                    XCTAssertEqual(scalars.first, "#", "\(message): a lone # in \(out.prefix(200))")
                    scalars = scalars.dropFirst()
                }
                shown.unicodeScalars.append(c)
            }
            XCTAssertFalse(shown.contains("#["), "\(message): \(shown.prefix(200))")
        }
    }

    func testXmobarKeepsUntrustedTextInsideRaw() {
        eachHostileState { state, message in
            let out = render(.xmobar, state)
            assertOneLine(out, message)
            // Read it as xmobar does: tags outside raw, and raw=N takes exactly N characters.
            var rest = Array(out.dropLast().unicodeScalars)[...]
            var tags: [String] = []
            var raw: [String] = []
            while !rest.isEmpty {
                guard rest.first == "<" else { XCTFail("\(message): text outside <raw>: \(String(String.UnicodeScalarView(rest.prefix(80))))"); return }
                if rest.starts(with: "<raw=".unicodeScalars) {
                    rest = rest.dropFirst(5)
                    let digits = rest.prefix { ("0"..."9").contains($0) }
                    rest = rest.dropFirst(digits.count)
                    XCTAssertEqual(rest.first, ":", message)
                    rest = rest.dropFirst()
                    let n = Int(String(String.UnicodeScalarView(digits)))!
                    raw.append(String(String.UnicodeScalarView(rest.prefix(n))))
                    rest = rest.dropFirst(n)
                    XCTAssertTrue(rest.starts(with: "/>".unicodeScalars), "\(message): raw length wrong")
                    rest = rest.dropFirst(2)
                } else {
                    let end = rest.firstIndex(of: ">")!
                    tags.append(String(String.UnicodeScalarView(rest[rest.startIndex...end])))
                    rest = rest[(end + 1)...]
                }
            }
            var expected: [String] = []
            if let current = state.current { expected.append("<action=`headlines open --id \(HeadlineKey.of(id: current.id))` button=1>") }
            if state.stateName != "fresh" { expected.append("<fc=\(state.stateName == "stale" ? BarColors.stale : BarColors.error)>") }
            if state.stateName != "fresh" { expected.append("</fc>") }
            if state.current != nil { expected.append("</action>") }
            XCTAssertEqual(tags, expected, message)
            XCTAssertEqual(raw.count, 1, message)
        }
    }

    func testGenmonIsThreeElementsOfEscapedPango() throws {
        try eachHostileState { state, message in
            let thumbnails = state.current.map { [$0.id: "/tmp/thumbnails/a.png"] } ?? [:]
            let out = FormatLines.render(.genmon, state, FormatLines.Context(now: now, maxLength: 80, thumbnails: thumbnails))!
            XCTAssertTrue(out.hasSuffix("\n") && !out.dropLast().contains("\n\n"), message)
            XCTAssertEqual(out.hasPrefix("<img>/tmp/thumbnails/a.png</img><txt>"), state.current != nil, message)
            let pattern = try NSRegularExpression(pattern: "^(?:<img>/tmp/thumbnails/a.png</img>)?<txt>([^\u{0}]*?)</txt><tool>([^\u{0}]*?)</tool>(?:<txtclick>(headlines open --id [0-9a-f]{16})</txtclick>)?\n$")
            let match = try XCTUnwrap(pattern.firstMatch(in: out, range: NSRange(out.startIndex..., in: out)), "\(message): \(out.prefix(300))")
            let text = String(out[Range(match.range(at: 1), in: out)!])
            let tool = String(out[Range(match.range(at: 2), in: out)!])
            assertPangoText(text, message)
            assertPangoText(tool, message)
            XCTAssertFalse(text.contains("\n"), message)
            if let current = state.current {
                XCTAssertEqual(String(out[Range(match.range(at: 3), in: out)!]), "headlines open --id \(HeadlineKey.of(id: current.id))")
            }
        }
    }

    /// Words split at blanks, single and double quotes grouping (enough for argos' attributes).
    private func shellWords(_ s: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        var inWord = false
        for c in s {
            if let q = quote {
                if c == q { quote = nil } else { word.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c; inWord = true
            } else if c == " " {
                if inWord { words.append(word) }
                word = ""; inWord = false
            } else {
                word.append(c); inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    func testArgosLinesHaveOneSeparatorAndOnlyOurAttributes() {
        eachHostileState { state, message in
            let out = render(.argos, state)
            let lines = out.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertEqual(lines.filter { $0 == "---" }.count, 1, "\(message): a title made a second separator")
            XCTAssertEqual(lines.count, 2 + min(state.headlines.count, 10), message)
            for line in lines where line != "---" {
                XCTAssertFalse(line.hasPrefix("-"), "\(message): argos reads a leading -- as a submenu: \(line.prefix(80))")
                let parts = line.split(separator: "|", omittingEmptySubsequences: false)
                XCTAssertEqual(parts.count, 2, "\(message): \(line.prefix(200))")
                assertPangoText(String(parts[0]), message)
                // argos reads the attributes as shell words (GLib.shell_parse_argv).
                let attributes = shellWords(String(parts[1])).map { String($0.split(separator: "=", maxSplits: 1)[0]) }
                XCTAssertTrue(Set(attributes).isSubset(of: ["bash", "terminal", "unescape", "emojize", "trim", "color"]),
                              "\(message): \(parts[1])")
                XCTAssertFalse(parts[1].contains("href"), message)
            }
            for (i, h) in state.headlines.prefix(10).enumerated() {
                XCTAssertTrue(lines[2 + i].hasSuffix(" | bash='headlines open --id \(HeadlineKey.of(id: h.id))' terminal=false unescape=false emojize=false trim=false"),
                              "\(message): \(lines[2 + i].suffix(120))")
            }
        }
    }

    func testPlainIsOneLineAndConkyEscapesDollarAndHash() {
        eachHostileState { state, message in
            assertOneLine(render(.plain, state), message)
            let html = BarLines.render(state, FormatLines.Context(now: now, maxLength: 80))[.plainHTML]!
            assertOneLine(html, message)
            assertPangoText(String(html.dropLast()), "plain --html, rich text for KDE: \(message)")
            let conky = render(.conky, state)
            for line in conky.dropLast().split(separator: "\n", omittingEmptySubsequences: false) {
                XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 }, message)
                // conky reads a `#` in parsed output as the start of a comment unless it is `\#`.
                var previous: Character = " "
                for c in line {
                    if c == "#" { XCTAssertEqual(previous, "\\", "\(message): a bare # ends conky's line: \(line.prefix(200))") }
                    previous = c
                }
                var rest = Substring(line)
                while let dollar = rest.firstIndex(of: "$") {
                    XCTAssertEqual(rest[rest.index(after: dollar)...].first, "$", "\(message): a lone $ starts a conky variable: \(line.prefix(200))")
                    rest = rest[rest.index(dollar, offsetBy: 2)...]
                }
            }
            XCTAssertLessThanOrEqual(conky.filter { $0 == "\n" }.count, 5, message)
        }
    }

    func testI3blocksKeyedFileIsTheKeyThenTheThreeLines() {
        eachHostileState { state, message in
            let out = render(.i3blocks, state)
            let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertEqual(lines.count, 5, message)
            XCTAssertEqual(String(lines[0]), state.current.map { HeadlineKey.of(id: $0.id) } ?? "", message)
            let pango = BarLines.render(state, FormatLines.Context(now: now, maxLength: 80))[.i3blocksPangoKeyed]!
            let pangoLines = pango.split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertEqual(pangoLines.count, 5, message)
            XCTAssertEqual(pangoLines[0], lines[0], message)
            assertPangoText(String(pangoLines[1]).replacingOccurrences(of: "<b>", with: "").replacingOccurrences(of: "</b>", with: ""), message)
        }
    }

    func testTheWidgetDocumentIsOneJSONLineWithEveryItem() throws {
        try eachHostileState { state, message in
            let out = FormatLines.render(.json, state, FormatLines.Context(now: now, maxLength: 80, widget: "world",
                                                                            thumbnails: state.current.map { [$0.id: "/tmp/thumb.png"] } ?? [:],
                                                                            updatedAt: now))!
            assertOneLine(out, message)
            let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], message)
            XCTAssertEqual(doc["stale"] as? Bool, state.stateName == "stale" || state.stateName == "error", message)
            XCTAssertEqual(doc["updated_at"] as? String, "2027-01-15T08:00:00.000Z", message)
            XCTAssertEqual(doc["widget"] as? String, "world")
            XCTAssertEqual(Set(doc.keys), ["widget", "state", "stale", "updated_at", "error", "index", "items"], message)
            let items = try XCTUnwrap(doc["items"] as? [[String: Any]])
            XCTAssertEqual(items.count, state.headlines.count, message)
            for (item, h) in zip(items, state.headlines) {
                XCTAssertEqual(item["id"] as? String, HeadlineKey.of(id: h.id))
                XCTAssertLessThanOrEqual((item["title"] as? String ?? "").count, 300)
                XCTAssertEqual(item["new"] as? Bool, true)
                XCTAssertEqual(item["url"] as? String, h.url.absoluteString)
                XCTAssertNotNil(item["age"] as? String)
                XCTAssertNotNil(item["published_at"] as? String)
                XCTAssertEqual(item["thumbnail"] as? String, h.id == state.current?.id ? "/tmp/thumb.png" : nil)
                if h.id != state.current?.id { XCTAssertTrue(item["thumbnail"] is NSNull, "thumbnail is null when there is none") }
            }
        }
    }

    func testTheWidgetDocumentStaysInsideWhatHeadlinesBarReadsWhateverTheFeedSends() throws {
        // A hundred headlines, each title a wall of quotes and four-byte characters, each link huge.
        let headlines = (0..<100).map { i in
            Headline(id: "\(i)", title: String(repeating: "\"𝄞\\", count: 2000), url: URL(string: "https://example.com/" + String(repeating: "a", count: 100_000))!,
                     source: String(repeating: "s", count: 1000), publishedAt: now)
        }
        let out = FormatLines.render(.json, BarState(headlines: headlines, index: 70, freshness: .fresh), FormatLines.Context(now: now, maxLength: 80))!
        XCTAssertLessThanOrEqual(out.utf8.count, BarFormat.json.maxFileBytes)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        XCTAssertEqual((doc["items"] as? [Any])?.count, 50)
        XCTAssertTrue(doc["index"] is NSNull, "the headline on display is not among the items")
    }
}
