import Foundation
import XCTest
@testable import HeadlinesCore

final class ISO8601Tests: XCTestCase {
    func testParsesWithAndWithoutFraction() {
        XCTAssertEqual(ISO8601.parse("2026-11-29T21:40:00Z"), Date(timeIntervalSince1970: 1_795_988_400))
        XCTAssertEqual(ISO8601.parse("2026-11-29T21:40:00.000Z"), Date(timeIntervalSince1970: 1_795_988_400))
        XCTAssertEqual(ISO8601.parse(" 2026-11-29T21:40:00.250Z "), Date(timeIntervalSince1970: 1_795_988_400.25))
    }

    func testRejectsWhatIsNotADate() {
        for text in ["yesterday", "2026-13-45T99:00:00Z", "", "2026-11-29", "Sunday"] {
            XCTAssertNil(ISO8601.parse(text), text)
        }
    }

    /// Every fixture timestamp must come back out exactly as it went in, or the cache, `list --json`
    /// and change detection all see a different date after one store.
    func testFormatGivesBackTheMillisecondsThatWereParsed() {
        let stamps = ["2026-11-29T22:20:23.000Z", "2026-11-29T21:58:10.512Z", "2026-11-29T21:15:42.123Z",
                      "2026-11-29T20:59:59.999Z", "2026-11-29T19:48:03.250Z", "2026-11-29T19:02:11.001Z"]
        XCTAssertEqual(stamps.map { ISO8601.format(date($0)) }, stamps)
    }

    func testEncoderAndDecoderRoundTripADate() throws {
        struct Box: Codable, Equatable { var at: Date }
        let value = Box(at: date("2026-11-29T21:15:42.123Z"))
        let data = try StateJSONEncoder.headlines().encode(value)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"at":"2026-11-29T21:15:42.123Z"}"#)
        XCTAssertEqual(try StateJSONDecoder.headlines().decode(Box.self, from: data), value)
    }
}
