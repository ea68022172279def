import Foundation
import XCTest
@testable import HeadlinesCore

/// The coders that replaced FoundationEssentials' JSONEncoder/JSONDecoder in the core: every state
/// file must come out byte for byte as the old build wrote it, and each build must read the other's.
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
    static var timeline: PublishedTimeline {
        let content = WidgetContent(headlines: headlines, index: 1, freshness: .stale, fetchedAt: when, error: "no network",
                                    partialFailures: ["feed 1 failed"])
        let entries = [TimelineEntry(date: when, content: content),
                       TimelineEntry(date: when.addingTimeInterval(30), content: WidgetContent(headlines: [], freshness: .empty, fetchedAt: nil))]
        return PublishedTimeline(hostPID: 4242, provider: "Feeds", generation: 7, publishedAt: when,
                                 timeline: Timeline(entries: entries, policy: .after(when.addingTimeInterval(900))),
                                 nextReload: when, lastReload: nil, lastResult: "ok", budgetUsed: 3, budgetLimit: 100,
                                 deferredUntil: when, deferredBy: .dailyBudget)
    }

    /// The encoder every state file went through before (StateJSONEncoder.headlines() of the old build).
    static func legacyEncoder(pretty: Bool = false) -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .custom { date, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(ISO8601.format(date))
        }
        return e
    }

    static func legacyDecoder() -> JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .custom { decoder in
            let c = try decoder.singleValueContainer()
            let s = try c.decode(String.self)
            guard let date = ISO8601.parse(s) else { throw DecodingError.dataCorruptedError(in: c, debugDescription: s) }
            return date
        }
        return d
    }

    /// Encodes with both coders, plain and pretty, and checks the bytes match and read back.
    func assertSameAsJSONEncoder<T: Codable & Equatable>(_ value: T, file: StaticString = #filePath, line: UInt = #line) throws {
        for pretty in [false, true] {
            let old = try Self.legacyEncoder(pretty: pretty).encode(value)
            let new = try StateJSONEncoder(prettyPrinted: pretty).encode(value)
            XCTAssertEqual(String(decoding: new, as: UTF8.self), String(decoding: old, as: UTF8.self), "pretty: \(pretty)", file: file, line: line)
            // Files of the old build read back, and the old build reads ours.
            XCTAssertEqual(try StateJSONDecoder.headlines().decode(T.self, from: old), value, file: file, line: line)
            XCTAssertEqual(try Self.legacyDecoder().decode(T.self, from: new), value, file: file, line: line)
        }
    }

    // MARK: Byte identity and round trips

    func testEveryStateFileTypeWritesWhatJSONEncoderWrote() throws {
        try assertSameAsJSONEncoder(Self.cache)
        try assertSameAsJSONEncoder(Self.ledger)
        try assertSameAsJSONEncoder(RefreshLedger())
        try assertSameAsJSONEncoder(Self.seen)
        try assertSameAsJSONEncoder(SeenSet())
        try assertSameAsJSONEncoder(MutedSources(["BBC", "Ars Technica"]))
        try assertSameAsJSONEncoder(MutedSources())
        try assertSameAsJSONEncoder(RotationOffset(offset: -3))
        try assertSameAsJSONEncoder(Self.timeline)
        try assertSameAsJSONEncoder(Self.status)
        try assertSameAsJSONEncoder(RefreshStatus())
    }

    func testEveryReloadPolicyCaseRoundTrips() throws {
        for policy in [ReloadPolicy.atEnd, .never, .after(Self.when)] {
            var t = Self.timeline
            t.timeline = Timeline(entries: [], policy: policy)
            try assertSameAsJSONEncoder(t)
        }
    }

    func testRoundTripsGiveBackTheSameValue() throws {
        let encoder = StateJSONEncoder.headlines(), decoder = StateJSONDecoder.headlines()
        XCTAssertEqual(try decoder.decode(CachedHeadlines.self, from: encoder.encode(Self.cache)), Self.cache)
        XCTAssertEqual(try decoder.decode(RefreshLedger.self, from: encoder.encode(Self.ledger)), Self.ledger)
        XCTAssertEqual(try decoder.decode(SeenSet.self, from: encoder.encode(Self.seen)), Self.seen)
        XCTAssertEqual(try decoder.decode(MutedSources.self, from: encoder.encode(MutedSources(["x"]))), MutedSources(["x"]))
        XCTAssertEqual(try decoder.decode(RotationOffset.self, from: encoder.encode(RotationOffset(offset: 5))), RotationOffset(offset: 5))
        XCTAssertEqual(try decoder.decode(PublishedTimeline.self, from: encoder.encode(Self.timeline)), Self.timeline)
        XCTAssertEqual(try decoder.decode(RefreshStatus.self, from: encoder.encode(Self.status)), Self.status)
    }

    func testBarLinesAndListOutputMatchJSONEncoder() throws {
        let state = BarState(headlines: Self.headlines, index: 0, freshness: .fresh)
        let line = WaybarRenderer.line(state, now: Self.when, maxLength: 40)
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        XCTAssertEqual(WaybarRenderer.render(state, now: Self.when, maxLength: 40), String(decoding: try e.encode(line), as: UTF8.self) + "\n")
        let json = ListRenderer.json(Self.headlines)
        XCTAssertTrue(json.contains(#""image" : null"#), json)
        XCTAssertTrue(json.hasPrefix("[\n  {\n    \"id\" : \"a/1\",\n"), json)
        XCTAssertEqual(ListRenderer.json([]), "[\n\n]")
    }

    func testNumbersAreSpelledAsJSONEncoderSpellsThem() throws {
        struct N: Codable, Equatable { var d: [Double]; var f: [Float]; var i: [Int64]; var u: UInt64; var i8: Int8; var b: [Bool] }
        let value = N(d: [0, -0.0, 0.1, 1e-7, 1e16, 123456789.125, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 3, -2.5],
                      f: [0.1, 3.4e38, .leastNonzeroMagnitude, 2], i: [.min, .max, 0, -1], u: .max, i8: -128, b: [true, false])
        try assertSameAsJSONEncoder(value)
    }

    func testNestedContainersAndSuperEncoderMatchJSONEncoder() throws {
        try assertSameAsJSONEncoder(Nested(name: "n", values: [1, 2], inner: ["k": [nil, 1.5]], parent: "p"))
    }

    func testExplicitNullsAndOptionalsMatchJSONEncoder() throws {
        struct O: Codable, Equatable { var a: String?; var b: [Int?]; var c: [String: String?] }
        try assertSameAsJSONEncoder(O(a: nil, b: [nil, 1], c: ["x": nil, "y": "z"]))
    }

    func testAValueThatEncodesNothingIsAnEmptyObjectInsideAndAnErrorAtTheTop() throws {
        struct Nothing: Codable, Equatable { func encode(to encoder: Encoder) throws {}; init() {}; init(from decoder: Decoder) throws {} }
        struct Holder: Codable, Equatable { var n = Nothing() }
        XCTAssertEqual(String(decoding: try StateJSONEncoder().encode(Holder()), as: UTF8.self), #"{"n":{}}"#)
        XCTAssertThrowsError(try StateJSONEncoder().encode(Nothing())) { XCTAssertTrue($0 is EncodingError) }
        XCTAssertThrowsError(try StateJSONEncoder().encode([Double.nan])) { XCTAssertTrue($0 is EncodingError) }
        XCTAssertThrowsError(try StateJSONEncoder().encode(["x": Float.infinity])) { XCTAssertTrue($0 is EncodingError) }
    }

    // MARK: Errors say where

    func testAMissingKeyIsKeyNotFoundWithItsPath() throws {
        let text = #"{"provider":"p","fetchedAt":"2026-11-29T21:58:10.512Z","version":1,"headlines":[{"id":"a","title":"t","url":"https://x/","source":"s","publishedAt":"2026-11-29T21:58:10.512Z"},{"id":"b","title":"t","source":"s","publishedAt":"2026-11-29T21:58:10.512Z"}]}"#
        XCTAssertThrowsError(try StateJSONDecoder().decode(CachedHeadlines.self, from: Data(text.utf8))) { error in
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
            XCTAssertThrowsError(try StateJSONDecoder().decode(RefreshStatus.Failure.self, from: Data(text.utf8)), text) { error in
                XCTAssertEqual(Self.path(of: error), path, "\(text): \(error)")
            }
        }
        let badURL = #"{"id":"a","title":"t","url":"","source":"s","publishedAt":"2026-11-29T21:58:10Z"}"#
        XCTAssertThrowsError(try StateJSONDecoder().decode(Headline.self, from: Data(badURL.utf8))) {
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

/// Uses every kind of container, including a nested keyed one, a nested unkeyed one and a super
/// encoder, so their output can be compared with JSONEncoder's.
struct Nested: Codable, Equatable {
    var name: String
    var values: [Int]
    var inner: [String: [Double?]]
    var parent: String

    enum Keys: String, CodingKey { case name, box, list, parent }
    enum BoxKeys: String, CodingKey { case inner }

    init(name: String, values: [Int], inner: [String: [Double?]], parent: String) {
        self.name = name; self.values = values; self.inner = inner; self.parent = parent
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(name, forKey: .name)
        var box = c.nestedContainer(keyedBy: BoxKeys.self, forKey: .box)
        try box.encode(inner, forKey: .inner)
        var list = c.nestedUnkeyedContainer(forKey: .list)
        for v in values { try list.encode(v) }
        var nested = list.nestedUnkeyedContainer()
        try nested.encodeNil()
        var sup = c.superEncoder().singleValueContainer()
        try sup.encode(parent)
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        name = try c.decode(String.self, forKey: .name)
        inner = try c.nestedContainer(keyedBy: BoxKeys.self, forKey: .box).decode([String: [Double?]].self, forKey: .inner)
        var list = try c.nestedUnkeyedContainer(forKey: .list)
        values = []
        while list.count! - list.currentIndex > 1 { values.append(try list.decode(Int.self)) }
        var nested = try list.nestedUnkeyedContainer()
        guard try nested.decodeNil(), nested.isAtEnd, list.isAtEnd else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "list")) }
        parent = try c.superDecoder().singleValueContainer().decode(String.self)
    }
}
