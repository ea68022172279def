import Foundation
import XCTest
@testable import HeadlinesCore

/// Whatever sits in a state file, the decoder throws a DecodingError and never crashes, and it
/// takes numbers as JSONDecoder took them (checked against JSONDecoder itself).
final class StateJSONMalformedTests: XCTestCase {
    private func assertRejected<T: Decodable>(_ bytes: [UInt8], as type: T.Type = JSONAny.self, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try StateJSONDecoder().decode(type, from: bytes), String(decoding: bytes, as: UTF8.self), file: file, line: line) {
            XCTAssertTrue($0 is DecodingError, "\($0)", file: file, line: line)
        }
    }

    private func assertRejected<T: Decodable>(_ text: String, as type: T.Type = JSONAny.self, file: StaticString = #filePath, line: UInt = #line) {
        assertRejected(Array(text.utf8), as: type, file: file, line: line)
    }

    func testEveryTruncationOfAStateFileIsRejected() throws {
        let full = try StateJSONEncoder().encodeBytes(StateJSONTests.timeline)
        XCTAssertNoThrow(try StateJSONDecoder().decode(PublishedTimeline.self, from: full))
        for n in 0..<full.count {
            assertRejected(Array(full[0..<n]), as: PublishedTimeline.self)
            assertRejected(Array(full[0..<n]))
        }
    }

    func testBadSyntaxIsRejected() {
        for text in ["", " ", "{", "}", "[1,]", "[,1]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "{'a':1}", "[1 2]", "tru", "nul",
                     "True", "NaN", "Infinity", "-", "01", "1.", ".5", "1e", "1e+", "+1", "0x10", "\"abc", "[1] [2]", "1 x",
                     "// c\n1", "\u{FEFF}1"] {
            assertRejected(text)
        }
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
        XCTAssertEqual(try StateJSONDecoder().decode(String.self, from: Array(#""\ud83d\ude00 \u00e9\u002F\/""#.utf8)), "\u{1F600} é//")
    }

    func testInvalidUTF8IsRejected() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22],
                               [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0x80, 0x22], [0x22, 0xC3]] {
            assertRejected(bytes)
        }
    }

    func testNestingIsLimitedTo64Levels() throws {
        for depth in [65, 1000, 100_000] {
            assertRejected(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
            assertRejected(String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth))
        }
        assertRejected(String(repeating: "[", count: 1000))
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        XCTAssertNoThrow(try StateJSONDecoder().decode(JSONAny.self, from: Array(deepest.utf8)))
    }

    func testHugeNumbersAreRejectedNotTrapped() {
        let huge = String(repeating: "9", count: 10_000)
        for text in ["1e400", "-1e400", huge, "9223372036854775808", "1.5", "1e20", "1e99999999999999999999"] {
            assertRejected("[\(text)]", as: [Int].self)
        }
        for text in ["1e400", "-1e400", huge, "1e-400"] {
            assertRejected("[\(text)]", as: [Double].self)
        }
        assertRejected("[3.5e38]", as: [Float].self)
        assertRejected("[2147483648]", as: [Int32].self)
        assertRejected("[-1]", as: [UInt].self)
        assertRejected("[1]", as: [Bool].self)
        assertRejected(#"["1"]"#, as: [Int].self)
    }

    /// Each number, decoded as each type, succeeds or fails as with JSONDecoder, to the same value.
    func testNumbersDecodeAsJSONDecoderDecodesThem() throws {
        let numbers = ["0", "-0", "1", "-1", "3.0", "1e2", "1E+2", "2.5e1", "1.5", "-2.5", "0.1", "1e-7", "0e10", "0.0e-999",
                       "2147483647", "2147483648", "-2147483648", "-2147483649", "9223372036854775807", "9223372036854775808",
                       "18446744073709551615", "18446744073709551616", "9007199254740993", "1e15", "1e16", "3.4028235e38",
                       "3.5e38", "1e-45", "1e-50", "1.7976931348623157e308", "1e309", "5e-324", "123456789.125", "1e-400", "1e18", "1e19", "12345678901234567890.0",
                       "1.0000000000000001", "100e-2", "0.5e1"]
        func check<T: Decodable & Equatable>(_ type: T.Type) {
            for n in numbers {
                let bytes = Array("[\(n)]".utf8)
                let old = try? JSONDecoder().decode([T].self, from: Data(bytes))
                let new = try? StateJSONDecoder().decode([T].self, from: bytes)
                XCTAssertEqual(new, old, "\(n) as \(T.self)")
            }
        }
        check(Int.self); check(Int32.self); check(Int64.self); check(UInt.self); check(UInt8.self)
        check(Double.self); check(Float.self); check(Bool.self)
    }

    /// Where JSONDecoder's Decimal fallback loses the last digits (it refuses Int64.min spelled
    /// with a fraction), the digits are read exactly instead.
    func testIntegersAtTheLimitsSpelledWithAFractionAreExact() throws {
        XCTAssertEqual(try StateJSONDecoder().decode([Int64].self, from: Array("[-9223372036854775808.0e0, 92233720368547758.07e2]".utf8)),
                       [.min, .max])
        assertRejected("[92233720368547758.08e2]", as: [Int64].self)
        XCTAssertEqual(try StateJSONDecoder().decode([UInt64].self, from: Array("[1844674407370955161.5e1]".utf8)), [.max])
    }

    func testDuplicateKeysKeepTheFirstAsJSONDecoderDoes() throws {
        let text = #"{"offset":1,"offset":2}"#
        XCTAssertEqual(try StateJSONDecoder().decode(RotationOffset.self, from: Array(text.utf8)),
                       try JSONDecoder().decode(RotationOffset.self, from: Data(text.utf8)))
    }

    func testWhitespaceAroundValuesIsAllowed() throws {
        let text = " \t\r\n{ \"offset\" :\n 3 } \n"
        XCTAssertEqual(try StateJSONDecoder().decode(RotationOffset.self, from: Array(text.utf8)), RotationOffset(offset: 3))
    }
}

/// Decodes any JSON value and throws it away: for feeding the parser without a schema.
struct JSONAny: Decodable {
    init(from decoder: Decoder) throws {}
}
