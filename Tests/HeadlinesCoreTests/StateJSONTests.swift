import Foundation
import XCTest
@testable import HeadlinesCore
import HeadlinesSources
import TestSupport

/// The state files' coders: every file already on a user's disk loads and is written back byte for
/// byte, values round-trip, and an error names where in the file it is.
final class StateJSONTests: XCTestCase {
    // MARK: Given: one value of every state-file type, with the awkward parts filled in

    static let when = date("2026-11-29T21:58:10.512Z")
    static let headlines = [
        Headline(id: "a/1", title: "Quotes \" back\\slash / slash \u{7} bell \n newline \u{1F600} \u{2028}",
                 url: url("https://example.org/a?b=1&c=%20"), source: "Example", publishedAt: when,
                 imageURL: url("https://example.org/i.png"), summary: "Tab\there"),
        Headline(id: "b", title: "Before 1970", url: url("http://x.test/"), source: "ü", publishedAt: date("1969-07-20T20:17:40.000Z")),
    ]

    static var cache: CachedHeadlines { CachedHeadlines(provider: "feeds", fetchedAt: when, headlines: headlines) }
    static var ledger: RefreshLedger {
        var l = RefreshLedger()
        l.records = [.init(at: when, monotonic: 12345.678901, boot: "b00t"), .init(at: when.addingTimeInterval(60)),
                     .init(at: when.addingTimeInterval(120), monotonic: 1e-7), .init(at: when, monotonic: 3)]
        l.consecutiveFailures = 2
        l.retryNotBefore = when.addingTimeInterval(3600)
        l.lastOutcome = .failure
        l.source = "digest"
        return l
    }
    static var seen: SeenSet {
        var s = SeenSet()
        for (i, id) in ["z", "a", "é", "A", "10", "9", "key with \"quote\""].enumerated() { s.insert(id, at: when.addingTimeInterval(Double(i))) }
        return s
    }
    static var status: RefreshStatus {
        var s = RefreshStatus()
        s.recordFailure(provider: "NewsAPI", at: when, message: "HTTP 500 <b>&</b>")
        s.lastSuccess = when.addingTimeInterval(-86_400 * 400)
        return s
    }
    // MARK: Files already on users' disks

    /// Files written by the build before this one (its own hand-written coder, itself byte for
    /// byte what JSONEncoder wrote): `host/` by an idle host after one reload of the bench feed,
    /// `awkward/` from the values above. Each loads, and writing it back gives the same bytes.
    func testFilesTheLastBuildWroteLoadAndAreWrittenBackByteForByte() throws {
        func check<T: Codable>(_ name: String, as type: T.Type, line: UInt = #line) throws -> T {
            let old = FixturePaths.data("state/" + name)
            let value = try StateJSONDecoder.headlines().decode(T.self, from: old)
            let new = try StateJSONEncoder.headlines().encode(value)
            XCTAssertEqual(String(decoding: new, as: UTF8.self), String(decoding: old, as: UTF8.self), name, line: line)
            return value
        }
        _ = try check("host/headlines.json", as: CachedHeadlines.self)
        _ = try check("host/ledger.json", as: RefreshLedger.self)
        _ = try check("host/seen.json", as: SeenSet.self)
        _ = try check("host/status.json", as: RefreshStatus.self)
        _ = try check("host/feeds.json", as: FeedStates.self)
        XCTAssertEqual(try check("awkward/headlines.json", as: CachedHeadlines.self), Self.cache)
        XCTAssertEqual(try check("awkward/ledger.json", as: RefreshLedger.self), Self.ledger)
        XCTAssertEqual(try check("awkward/seen.json", as: SeenSet.self), Self.seen)
        XCTAssertEqual(try check("awkward/muted.json", as: MutedSources.self), MutedSources(["BBC", "Ars Technica"]))
        XCTAssertEqual(try check("awkward/offset.json", as: RotationOffset.self), RotationOffset(offset: -3))
        XCTAssertEqual(try check("awkward/status.json", as: RefreshStatus.self), Self.status)
        let pretty = try StateJSONEncoder.headlines(prettyPrinted: true).encode(Self.status)
        XCTAssertEqual(String(decoding: pretty, as: UTF8.self), String(decoding: FixturePaths.data("state/awkward/status-pretty.json"), as: UTF8.self))
    }

    func testRoundTripsGiveBackTheSameValue() throws {
        let encoder = StateJSONEncoder.headlines(), decoder = StateJSONDecoder.headlines()
        XCTAssertEqual(try decoder.decode(CachedHeadlines.self, from: encoder.encode(Self.cache)), Self.cache)
        XCTAssertEqual(try decoder.decode(RefreshLedger.self, from: encoder.encode(Self.ledger)), Self.ledger)
        XCTAssertEqual(try decoder.decode(SeenSet.self, from: encoder.encode(Self.seen)), Self.seen)
        XCTAssertEqual(try decoder.decode(MutedSources.self, from: encoder.encode(MutedSources(["x"]))), MutedSources(["x"]))
        XCTAssertEqual(try decoder.decode(RotationOffset.self, from: encoder.encode(RotationOffset(offset: 5))), RotationOffset(offset: 5))
        XCTAssertEqual(try decoder.decode(RefreshStatus.self, from: encoder.encode(Self.status)), Self.status)
    }

    func testBarLinesAreOneLineWithSortedKeysAndUnescapedSlashes() throws {
        let state = BarState(headlines: [Headline(id: "x", title: "AC/DC & co", url: url("https://x.test/a"), source: "s",
                                                  publishedAt: Self.when)], index: 0, freshness: .fresh)
        let rendered = WaybarRenderer.render(state, now: Self.when, maxLength: 40)
        XCTAssertTrue(rendered.hasPrefix(#"{"alt":"fresh","class":["fresh","new"],"percentage":"#), rendered)
        XCTAssertTrue(rendered.contains(#","text":"AC/DC &amp; co","tooltip":"<b>AC/DC &amp; co — s · "#), rendered)
        XCTAssertTrue(rendered.hasSuffix("</b>\"}\n"), rendered)
        XCTAssertEqual(rendered.filter { $0 == "\n" }.count, 1, rendered)
        let json = ListRenderer.json(Self.headlines)
        XCTAssertTrue(json.contains(#""image" : null"#), json)
        // Keys sorted: comments_url comes first.
        XCTAssertTrue(json.hasPrefix("[\n  {\n    \"comments_url\" : null,\n    \"id\" : \"a/1\",\n"), json)
        XCTAssertEqual(ListRenderer.json([]), "[\n\n]")
    }

    // MARK: Errors say where

    func testAMissingKeyIsKeyNotFoundWithItsPath() throws {
        let text = #"{"provider":"p","fetchedAt":"2026-11-29T21:58:10.512Z","version":1,"headlines":[{"id":"a","title":"t","url":"https://x/","source":"s","publishedAt":"2026-11-29T21:58:10.512Z"},{"id":"b","title":"t","source":"s","publishedAt":"2026-11-29T21:58:10.512Z"}]}"#
        XCTAssertThrowsError(try StateJSONDecoder.headlines().decode(CachedHeadlines.self, from: Data(text.utf8))) { error in
            guard case let DecodingError.keyNotFound(key, context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "url")
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["headlines", "Index 1"])
        }
    }

    func testABadDateOrURLOrTypeIsAnErrorAtItsPath() throws {
        let cases: [(String, [String])] = [
            (#"{"at":"yesterday","message":"m"}"#, ["at"]),
            (#"{"at":5,"message":"m"}"#, ["at"]),
            (#"{"at":null,"message":"m"}"#, ["at"]),
            (#"{"at":"2026-11-29T21:58:10Z","message":["m"]}"#, ["message"]),
        ]
        for (text, path) in cases {
            XCTAssertThrowsError(try StateJSONDecoder.headlines().decode(RefreshStatus.Failure.self, from: Data(text.utf8)), text) { error in
                XCTAssertEqual(Self.path(of: error), path, "\(text): \(error)")
            }
        }
        let badURL = #"{"id":"a","title":"t","url":"","source":"s","publishedAt":"2026-11-29T21:58:10Z"}"#
        XCTAssertThrowsError(try StateJSONDecoder.headlines().decode(Headline.self, from: Data(badURL.utf8))) {
            XCTAssertEqual(Self.path(of: $0), ["url"])
        }
    }

    static func path(of error: Error) -> [String]? {
        switch error as? DecodingError {
        case let .dataCorrupted(c)?, let .typeMismatch(_, c)?, let .valueNotFound(_, c)?, let .keyNotFound(_, c)?:
            return c.codingPath.map(\.stringValue)
        default: return nil
        }
    }
}
