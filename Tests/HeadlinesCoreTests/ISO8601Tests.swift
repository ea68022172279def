import Foundation
import XCTest
@testable import HeadlinesCore
import TestSupport

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

    // The parser and formatter are by hand now; Date.ISO8601FormatStyle is the reference.
    static let reference = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    static let referencePlain = Date.ISO8601FormatStyle()

    func testParsesWhatISO8601FormatStyleParsed() throws {
        let texts = ["2026-11-29T21:40:00Z", "2026-11-29T21:40:00z", "2026-11-29T21:40:00.5Z", "2026-11-29T21:40:00.123456789Z",
                     "2026-11-29T21:40:00+02:00", "2026-11-29T21:40:00-05:30", "2026-11-29T21:40:00+0530", "2026-11-29T21:40:00+05",
                     "2026-11-29T21:40:00.250-00:00", "2026-11-29T21:40:00+14:00", "2026-11-29T21:40:00-12:00",
                     "2026-11-29T21:40:00GMT", "2026-11-29T21:40:00UTC+01:00", "2026-11-29T21:40:00+01:02:03",
                     "2024-02-29T12:00:00Z", "2000-02-29T00:00:00Z", "1969-12-31T23:59:59.999Z", "1900-01-01T00:00:00Z",
                     "1583-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "2026-12-31T24:00:00Z", "2016-12-31T23:59:60Z",
                     "9999-12-31T23:59:59.999Z", "2026-1-2T3:4:5Z"]
        for text in texts {
            let expected = try Self.reference.parse(text)
            let got = try XCTUnwrap(ISO8601.parse(text), text)
            XCTAssertEqual(got.timeIntervalSince1970, expected.timeIntervalSince1970, accuracy: 1e-6, text)
        }
    }

    func testKnownInstantsBeforeAndAfter1970() {
        XCTAssertEqual(ISO8601.parse("1969-12-31T23:59:59.999Z")?.timeIntervalSince1970 ?? 0, -0.001, accuracy: 1e-6)
        // RFC 3339 is proleptic Gregorian: year 1 starts 719162 days before 1970.
        XCTAssertEqual(ISO8601.parse("0001-01-01T00:00:00Z")?.timeIntervalSince1970, -62_135_596_800)
        XCTAssertEqual(ISO8601.parse("1900-01-01T00:00:00Z")?.timeIntervalSince1970, -2_208_988_800)
        XCTAssertEqual(ISO8601.parse("2024-02-29T00:00:00Z")?.timeIntervalSince1970, 1_709_164_800)
        XCTAssertEqual(ISO8601.parse("2026-11-29T23:40:00+02:00"), ISO8601.parse("2026-11-29T21:40:00Z"))
        XCTAssertEqual(ISO8601.format(Date(timeIntervalSince1970: -0.001)), "1969-12-31T23:59:59.999Z")
        XCTAssertEqual(ISO8601.format(Date(timeIntervalSince1970: -2_208_988_800)), "1900-01-01T00:00:00.000Z")
        XCTAssertEqual(ISO8601.format(Date(timeIntervalSince1970: 1_709_164_800 + 86_399.9996)), "2024-03-01T00:00:00.000Z")
        XCTAssertEqual(ISO8601.format(Date(timeIntervalSince1970: 1_709_164_800), milliseconds: false), "2024-02-29T00:00:00Z")
        XCTAssertEqual(ISO8601.format(Date(timeIntervalSince1970: -0.5), milliseconds: false), "1969-12-31T23:59:59Z")
    }

    func testRejectsBrokenDatesAndZones() {
        for text in ["2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-00-10T00:00:00Z",
                     "2026-11-29T24:00:01Z", "2026-11-29T21:60:00Z", "2026-11-29T21:40:61Z", "2026-11-29T21:40:00",
                     "2026-11-29T21:40:00.Z", "2026-11-29T21:40:00.1234567890Z", "2026-11-29T21:40:00+18:00",
                     "2026-11-29T21:40:00+25", "2026-11-29T21:40:00+", "2026-11-29 21:40:00Z", "2026-11-29T21:40Z",
                     "2026-11-29T21:40:00Zjunk", "2026-11-29T21:40:00X"] {
            XCTAssertNil(ISO8601.parse(text), text)
        }
    }

    func testFormatMatchesTheFormatStyleItReplaced() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let t = Double(Int64(bitPattern: seed >> 1) % 8_000_000_000_000) / 1000 - 2_000_000_000
            let d = Date(timeIntervalSince1970: t)
            // What the old format did: the whole seconds through the format style, then the rounded milliseconds.
            let ms = Int64((t * 1000).rounded())
            let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
            var old = Self.referencePlain.format(Date(timeIntervalSince1970: TimeInterval(seconds)))
            old.removeLast()
            old += "." + String(String(ms - seconds * 1000 + 1000).dropFirst()) + "Z"
            XCTAssertEqual(ISO8601.format(d), old)
            XCTAssertEqual(ISO8601.format(d, milliseconds: false), Self.referencePlain.format(d))
            XCTAssertEqual(ISO8601.parse(ISO8601.format(d))?.timeIntervalSince1970 ?? .nan, Double(ms) / 1000, accuracy: 1e-6)
        }
    }
}

/// Fuzzing found it: a date far beyond four-digit years trapped in the Int64 conversion.
final class ISO8601ExtremesTests: XCTestCase {
    func testDatesBeyondFourDigitYearsAreClampedNotTrapped() {
        XCTAssertEqual(ISO8601.format(Date(timeIntervalSince1970: 1e300)), "9999-12-31T23:59:59.999Z")
        XCTAssertEqual(ISO8601.format(Date(timeIntervalSince1970: -1e300)), "0001-01-01T00:00:00.000Z")
        XCTAssertEqual(ISO8601.format(.distantFuture, milliseconds: false), "4001-01-01T00:00:00Z")
        XCTAssertEqual(ISO8601.format(Date(timeIntervalSince1970: .nan)), "1970-01-01T00:00:00.000Z")
    }
}
