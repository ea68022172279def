import BarFormats
import Foundation
import HeadlinesCore
import TestSupport
import XCTest

/// The bars' hand-written JSON: every text survives a JSON parser unchanged, a value never
/// breaks its line, and keys come out in byte order.
final class JSONTextTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00 UTC
    private var zone: TimeZoneOverride?

    override func setUp() { zone = TimeZoneOverride("UTC0") }
    override func tearDown() { zone?.restore() }

    func testEveryTextRoundTripsThroughAJSONParserOnOneLine() throws {
        // Given texts made of the awkward scalars: controls, quotes, backslashes, DEL, the
        // JavaScript line ends, a lone E2 lead byte's neighbours, combining marks and emoji
        let awkward: [Unicode.Scalar] = ["\u{0}", "\u{1}", "\u{1F}", "\t", "\n", "\r", "\"", "\\", "/", "\u{7F}",
                                         "\u{2028}", "\u{2029}", "\u{2027}", "\u{20AC}", "\u{301}", "\u{1F389}", "a", " ", ":", "{", "["]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...12, using: &generator) { text.append(awkward.randomElement(using: &generator)!) }
            let original = String(text)
            // When it is written as a string inside an array
            var json = JSONText.Writer()
            json.beginArray(); json.string(original); json.string(Optional<String>.none); json.endArray()
            // Then a JSON parser reads back the same text, and the line holds no raw line break
            let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.bytes)) as? [Any], json.text)
            XCTAssertEqual(parsed.first as? String, original, json.text)
            XCTAssertTrue(parsed.last is NSNull)
            XCTAssertFalse(json.bytes.contains { $0 < 0x20 }, json.text)
            XCTAssertFalse(json.text.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" }, json.text)
        }
    }

    func testNestedValuesGetTheirCommas() throws {
        var json = JSONText.Writer()
        json.beginObject()
        json.key("a"); json.beginArray(); json.number(1); json.beginObject(); json.key("b"); json.bool(true); json.endObject(); json.number(nil); json.endArray()
        json.key("c"); json.beginArray(); json.endArray()
        json.key("d"); json.beginObject(); json.endObject()
        json.key("e"); json.string("x:y")
        json.key("f"); json.bool(false)
        json.endObject()
        XCTAssertEqual(json.text, #"{"a":[1,{"b":true},null],"c":[],"d":{},"e":"x:y","f":false}"#)
    }

    func testTheWidgetDocumentIsTheSameBytesAsBeforeKeysInByteOrder() {
        // Given two headlines, one with a thumbnail
        let first = Headline(id: "https://example.com/1", title: "Tom & \"Jerry\"", url: URL(string: "https://example.com/1")!,
                             source: "example.com", publishedAt: now.addingTimeInterval(-600))
        let second = Headline(id: "https://example.com/2", title: "Second", url: URL(string: "https://example.com/2")!,
                              source: "example.org", publishedAt: now.addingTimeInterval(-7200))
        let state = BarState(headlines: [first, second], index: 1, freshness: .fresh)
        // When the document is rendered
        let out = FormatLines.render(.json, state, FormatLines.Context(now: now, maxLength: 80, widget: nil,
                                                                        thumbnails: [first.id: "/run/t.png"], updatedAt: now))
        // Then every key is there, in byte order, at every level
        let one = HeadlineKey.of(id: first.id), two = HeadlineKey.of(id: second.id)
        XCTAssertEqual(out, #"{"error":null,"index":1,"items":[{"age":"07:50","id":""# + one
                       + #"","match":false,"new":true,"published_at":"2027-01-15T07:50:00.000Z","source":"example.com","thumbnail":"/run/t.png","title":"Tom & \"Jerry\"","url":"https://example.com/1"},"#
                       + #"{"age":"06:00","id":""# + two
                       + #"","match":false,"new":false,"published_at":"2027-01-15T06:00:00.000Z","source":"example.org","thumbnail":null,"title":"Second","url":"https://example.com/2"}],"#
                       + #""stale":false,"state":"fresh","updated_at":"2027-01-15T08:00:00.000Z","widget":null}"# + "\n")
    }
}
