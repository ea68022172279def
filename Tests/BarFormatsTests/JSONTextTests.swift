import BarFormats
import Foundation
import XCTest

/// The bars' hand-written JSON: every text survives a JSON parser unchanged, a value never
/// breaks its line, and commas fall between values.
final class JSONTextTests: XCTestCase {
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
}
