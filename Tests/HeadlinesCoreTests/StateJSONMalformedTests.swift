import Foundation
import XCTest
@testable import HeadlinesCore
import HeadlinesSources

/// Whatever sits in a state file, the decoder throws a DecodingError and never crashes, so the
/// file is set aside (JSONStateFile) instead of taking the program down. JSONDecoder checks a
/// string or number only when a value is read from it, so the schema-free checks read every
/// value: into `JSONValue`, the json provider's tree.
final class StateJSONMalformedTests: XCTestCase {
    private func assertRejected<T: Decodable>(_ bytes: [UInt8], as type: T.Type = JSONValue.self, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try StateJSONDecoder.headlines().decode(type, from: Data(bytes)), String(decoding: bytes, as: UTF8.self), file: file, line: line) {
            XCTAssertTrue($0 is DecodingError, "\($0)", file: file, line: line)
        }
    }

    private func assertRejected<T: Decodable>(_ text: String, as type: T.Type = JSONValue.self, file: StaticString = #filePath, line: UInt = #line) {
        assertRejected(Array(text.utf8), as: type, file: file, line: line)
    }

    func testEveryTruncationOfAStateFileIsRejected() throws {
        let full = [UInt8](try StateJSONEncoder.headlines().encode(StateJSONTests.cache))
        XCTAssertNoThrow(try StateJSONDecoder.headlines().decode(CachedHeadlines.self, from: Data(full)))
        for n in 0..<full.count {
            assertRejected(Array(full[0..<n]), as: CachedHeadlines.self)
            assertRejected(Array(full[0..<n]))
        }
    }

    func testBadSyntaxIsRejected() {
        for text in ["", " ", "{", "}", "[,1]", "[1,,]", "{\"a\" 1}", "{a:1}", "{'a':1}", "[1 2]", "tru", "nul",
                     "True", "NaN", "Infinity", "-", "01", "1.", ".5", "1e", "1e+", "+1", "0x10", "\"abc", "[1] [2]", "1 x",
                     "// c\n1"] {
            assertRejected(text)
        }
    }

    /// JSONDecoder takes one trailing comma as a convenience; what precedes it is a whole value.
    func testOneTrailingCommaIsTaken() throws {
        XCTAssertEqual(try StateJSONDecoder.headlines().decode([Int].self, from: Data("[1,]".utf8)), [1])
        XCTAssertEqual(try StateJSONDecoder.headlines().decode(RotationOffset.self, from: Data(#"{"offset":2,}"#.utf8)), RotationOffset(offset: 2))
    }

    func testBadEscapesAndControlCharactersAreRejected() {
        for text in [#""\x""#, #""\u12""#, #""\u12g4""#, #""\'""#, "\"\\", "\"a\u{0}b\"", "\"tab\there\"", "\"new\nline\""] {
            assertRejected(text)
        }
    }

    func testLoneSurrogatesAreRejectedAndPairsJoined() throws {
        for text in [#""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud800x""#, #""\udbff\udbff""#, #""\ud800\""#] {
            assertRejected(text)
        }
        XCTAssertEqual(try StateJSONDecoder.headlines().decode(String.self, from: Data(#""\ud83d\ude00 \u00e9\u002F\/""#.utf8)), "\u{1F600} é//")
    }

    func testInvalidUTF8IsRejected() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22],
                               [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0x80, 0x22], [0x22, 0xC3]] {
            assertRejected(bytes)
        }
    }

    /// Nesting is bounded, so a hostile file cannot overflow the stack.
    func testDeepNestingIsRejectedNotACrash() throws {
        for depth in [1000, 100_000] {
            assertRejected(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
            assertRejected(String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth))
        }
        assertRejected(String(repeating: "[", count: 1000))
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        XCTAssertNoThrow(try StateJSONDecoder.headlines().decode(JSONValue.self, from: Data(deep.utf8)))
    }

    func testHugeNumbersAreRejectedNotTrapped() {
        let huge = String(repeating: "9", count: 10_000)
        for text in ["1e400", "-1e400", huge, "9223372036854775808", "1.5", "1e20", "1e99999999999999999999"] {
            assertRejected("[\(text)]", as: [Int].self)
        }
        for text in ["1e400", "-1e400", huge] {
            assertRejected("[\(text)]", as: [Double].self)
        }
        assertRejected("[3.5e38]", as: [Float].self)
        assertRejected("[2147483648]", as: [Int32].self)
        assertRejected("[-1]", as: [UInt].self)
        assertRejected("[1]", as: [Bool].self)
        assertRejected(#"["1"]"#, as: [Int].self)
    }

    func testWhitespaceAroundValuesIsAllowed() throws {
        let text = " \t\r\n{ \"offset\" :\n 3 } \n"
        XCTAssertEqual(try StateJSONDecoder.headlines().decode(RotationOffset.self, from: Data(text.utf8)), RotationOffset(offset: 3))
    }
}
