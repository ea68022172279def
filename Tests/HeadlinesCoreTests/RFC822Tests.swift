import Foundation
import XCTest
@testable import HeadlinesCore
import TestSupport

/// The one RFC 822 reader: RSS pubDates and HTTP dates (Retry-After) alike.
final class RFC822Tests: XCTestCase {
    func testADayNameIsFollowedByACommaOrASpace() {
        XCTAssertEqual(RFC822.parse("Tue,13 Nov 2012 15:45:00 PST"), date("2012-11-13T23:45:00Z"))
        XCTAssertEqual(RFC822.parse("Tue 13 Nov 2012 15:45:00 PST"), date("2012-11-13T23:45:00Z"))
        XCTAssertNil(RFC822.parse("Tue13 Nov 2012 15:45:00 PST"))
    }

    func testATwoDigitYearTurnsCenturyAtThePivot() {
        // RFC 9110's reading by default; feeds pass RFC 2822's 50.
        XCTAssertEqual(RFC822.parse("Sunday, 06-Nov-60 08:49:37 GMT"), date("2060-11-06T08:49:37Z"))
        XCTAssertEqual(RFC822.parse("Sunday, 06-Nov-60 08:49:37 GMT", pivot: 50), date("1960-11-06T08:49:37Z"))
        XCTAssertEqual(RFC822.parse("Sunday, 06-Nov-49 08:49:37 GMT", pivot: 50), date("2049-11-06T08:49:37Z"))
        XCTAssertNil(RFC822.parse("Sun, 06 Nov 60 08:49:37 GMT", pivot: 50), "two digits in RFC 850's form only")
    }

    func testTheStandardFormsReadToTheirInstant() {
        let table: [(String, String)] = [
            ("Tue, 10 Jun 2003 04:00:00 GMT", "2003-06-10T04:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 UT", "2003-06-10T04:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 UTC", "2003-06-10T04:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 +0000", "2003-06-10T04:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 -0000", "2003-06-10T04:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 +0530", "2003-06-09T22:30:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 -0945", "2003-06-10T13:45:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 EST", "2003-06-10T09:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 EDT", "2003-06-10T08:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 CST", "2003-06-10T10:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 CDT", "2003-06-10T09:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 MST", "2003-06-10T11:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 MDT", "2003-06-10T10:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 PST", "2003-06-10T12:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 PDT", "2003-06-10T11:00:00Z"),
            ("10 Jun 2003 04:00:00 GMT", "2003-06-10T04:00:00Z"),                // no day name
            ("Tuesday, 10 Jun 2003 04:00:00 GMT", "2003-06-10T04:00:00Z"),       // a long one
            ("Tue,10 Jun 2003 04:00:00 GMT", "2003-06-10T04:00:00Z"),            // no space after the comma
            ("tue, 10 JUN 2003 04:00:00 gmt", "2003-06-10T04:00:00Z"),           // any case
            ("  Tue,\t10  Jun 2003\t04:00:00   GMT  ", "2003-06-10T04:00:00Z"),  // runs of spaces and tabs
            ("Tue, 3 Jun 2003 4:0:9 GMT", "2003-06-03T04:00:09Z"),               // one-digit fields
            ("Sunday, 06-Nov-94 08:49:37 GMT", "1994-11-06T08:49:37Z"),          // RFC 850
            ("Sunday, 06-Nov-1994 08:49:37 GMT", "1994-11-06T08:49:37Z"),
            ("Sunday, 06-Nov-69 08:49:37 GMT", "2069-11-06T08:49:37Z"),          // below 70: this century
            ("Thursday, 06-Nov-70 08:49:37 GMT", "1970-11-06T08:49:37Z"),
            ("Sun Nov  6 08:49:37 1994", "1994-11-06T08:49:37Z"),                // asctime, always UTC
            ("Sun Nov 16 08:49:37 1994", "1994-11-16T08:49:37Z"),
            ("Sat, 31 Dec 2016 23:59:60 GMT", "2017-01-01T00:00:00Z"),           // leap second: next minute
            ("Thu, 29 Feb 2024 12:00:00 +0100", "2024-02-29T11:00:00Z"),
            ("Sat, 01 Jan 0001 00:00:00 GMT", "0001-01-01T00:00:00Z"),
        ]
        for (text, expected) in table {
            XCTAssertEqual(RFC822.parse(text), date(expected), text)
        }
    }

    func testWhatIsNoRFC822DateIsRefused() {
        let table = [
            "", "Sun, 06 Nov 1994 08:49:37",         // no zone
            "Sun, 06 Nov 94 08:49:37 GMT",            // a two-digit year outside RFC 850's form
            "Sun, 06 Nov 994 08:49:37 GMT", "Sun, 06 Nov 19945 08:49:37 GMT",
            "Sun, 006 Nov 1994 08:49:37 GMT", "Sun, 06 November 1994 08:49:37 GMT",
            "Wed, 29 Feb 2023 12:00:00 GMT", "Fri, 31 Apr 2026 12:00:00 GMT", "Sun, 00 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 1994 08:49:61 GMT",
            "Sun, 06 Nov 1994 08:49:37 A", "Sun, 06 Nov 1994 08:49:37 Z",      // military letters
            "Sun, 06 Nov 1994 08:49:37 CEST", "Sun, 06 Nov 1994 08:49:37 +01:00", "Sun, 06 Nov 1994 08:49:37 +01",
            "Sun, 06 Nov 1994 08:49:37 +0160", "Sun, 06 Nov 1994 08:49:37 +1800",
            "Sun, 06 Nov 1994 08:49:37 GMT junk", "Sun, 06 Nov 1994 08:49:37.5 GMT",
            "Xyz, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-994 08:49:37 GMT",
            "Sun Nov  6 08:49:37 94", "Sun Nov  6 08:49:37 1994 +0100",
            "2026-11-29T21:40:00Z",
        ]
        for text in table {
            XCTAssertNil(RFC822.parse(text), text)
        }
    }

    func testAgreesWithDateFormatterOnNumericZones() {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        for text in ["Tue, 01 Dec 2026 09:16:20 +0100", "Thu, 29 Feb 2024 23:59:59 -0800", "Wed, 31 Dec 1969 00:00:00 +1345"] {
            XCTAssertEqual(RFC822.parse(text), f.date(from: text), text)
        }
    }

    func testZoneOffsetNamesOnlyRFC822Zones() {
        XCTAssertEqual(RFC822.zoneOffset("GMT"), 0)
        XCTAssertEqual(RFC822.zoneOffset("pdt"), -7 * 3600)
        XCTAssertEqual(RFC822.zoneOffset("+0530"), 5 * 3600 + 30 * 60)
        XCTAssertEqual(RFC822.zoneOffset("-1200"), -12 * 3600)
        for zone in ["", "CEST", "A", "Z", "+01", "+01:00", "gmt+1", "+0160", "GMT "] {
            XCTAssertNil(RFC822.zoneOffset(zone), zone)
        }
    }

    func testFormatWritesIMFFixdate() {
        XCTAssertEqual(RFC822.format(Date(timeIntervalSince1970: 784_111_777)), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(RFC822.format(Date(timeIntervalSince1970: 0)), "Thu, 01 Jan 1970 00:00:00 GMT")
        XCTAssertEqual(RFC822.format(Date(timeIntervalSince1970: -0.5)), "Wed, 31 Dec 1969 23:59:59 GMT")
        XCTAssertEqual(RFC822.format(date("2024-02-29T23:59:59.999Z")), "Thu, 29 Feb 2024 23:59:59 GMT")
        XCTAssertEqual(RFC822.format(date("0001-01-01T00:00:00Z")), "Mon, 01 Jan 0001 00:00:00 GMT")
        XCTAssertEqual(RFC822.format(Date(timeIntervalSince1970: 1e300)), "Fri, 31 Dec 9999 23:59:59 GMT")
        // Before year 1 as well: the conversion to whole seconds would trap there too.
        XCTAssertEqual(RFC822.format(Date(timeIntervalSince1970: -1e300)), "Mon, 01 Jan 0001 00:00:00 GMT")
        XCTAssertEqual(RFC822.format(Date(timeIntervalSince1970: .nan)), "Thu, 01 Jan 1970 00:00:00 GMT")
    }

    /// What the format writes the parse reads back, to the second, across four centuries, and the
    /// day names agree with DateFormatter's.
    func testFormatAndParseRoundTrip() {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<2000 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let t = Double(Int64(bitPattern: seed >> 1) % 12_600_000_000) - 6_300_000_000
            let d = Date(timeIntervalSince1970: t)
            let text = RFC822.format(d)
            XCTAssertEqual(RFC822.parse(text), d, text)
            XCTAssertEqual(text, f.string(from: d))
        }
    }
}
