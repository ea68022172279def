import Foundation
import XCTest
import HeadlinesCore
import HeadlinesSources
import TestSupport

/// Dates as feeds really write them.
final class FeedDatesTests: XCTestCase {
    func testEveryVariantSeenInFeedsParsesToItsInstant() {
        // Given dates in RFC 822, RFC 3339 and their broken variants, with the instant each names
        let table: [(String, String)] = [
            ("Mon, 02 Jan 2006 15:04:05 GMT", "2006-01-02T15:04:05Z"),
            ("Mon, 02 Jan 2006 15:04:05 +0000", "2006-01-02T15:04:05Z"),
            ("Mon, 02 Jan 2006 15:04:05 -0700", "2006-01-02T22:04:05Z"),
            ("Mon, 02 Jan 2006 15:04:05 +0530", "2006-01-02T09:34:05Z"),
            ("Mon, 02 Jan 2006 15:04:05 UT", "2006-01-02T15:04:05Z"),
            ("Mon, 02 Jan 2006 15:04:05 Z", "2006-01-02T15:04:05Z"),
            ("Mon, 02 Jan 2006 15:04:05 EST", "2006-01-02T20:04:05Z"),
            ("Mon, 02 Jan 2006 15:04:05 EDT", "2006-01-02T19:04:05Z"),
            ("Mon, 02 Jan 2006 15:04:05 CST", "2006-01-02T21:04:05Z"),
            ("Mon, 02 Jan 2006 15:04:05 CDT", "2006-01-02T20:04:05Z"),
            ("Mon, 02 Jan 2006 15:04:05 MST", "2006-01-02T22:04:05Z"),
            ("Mon, 02 Jan 2006 15:04:05 MDT", "2006-01-02T21:04:05Z"),
            ("Mon, 02 Jan 2006 15:04:05 PST", "2006-01-02T23:04:05Z"),
            ("Mon, 02 Jan 2006 15:04:05 PDT", "2006-01-02T22:04:05Z"),
            ("Mon, 02 Jan 2006 15:04:05 A", "2006-01-02T14:04:05Z"),          // military: Alpha is UTC+1
            ("Mon, 02 Jan 2006 15:04:05 N", "2006-01-02T16:04:05Z"),          // November is UTC-1
            ("02 Jan 2006 15:04:05 GMT", "2006-01-02T15:04:05Z"),             // no day name
            ("Mon, 02 Jan 06 15:04:05 GMT", "2006-01-02T15:04:05Z"),          // 2-digit year
            ("Sat, 01 Jan 99 00:00:00 GMT", "1999-01-01T00:00:00Z"),          // 2-digit year, last century
            ("Mon, 2 Jan 2006 15:04:05 GMT", "2006-01-02T15:04:05Z"),         // single-digit day
            ("Mon, 02 Jan 2006 15:04 GMT", "2006-01-02T15:04:00Z"),           // no seconds
            ("mon, 02 jan 2006 15:04:05 gmt", "2006-01-02T15:04:05Z"),        // lowercase
            ("  Mon,  02   Jan 2006  15:04:05   GMT ", "2006-01-02T15:04:05Z"), // extra spaces
            ("Mon, 02 Jan 2006 15:04:05 +0000 (UTC)", "2006-01-02T15:04:05Z"), // trailing comment
            ("Monday, 02 January 2006 15:04:05 GMT", "2006-01-02T15:04:05Z"), // full names
            ("Mon, 02 Sept 2006 15:04:05 GMT", "2006-09-02T15:04:05Z"),
            ("Mon, 02 Jan 2006 15:04:05", "2006-01-02T15:04:05Z"),            // no zone: UTC
            ("Mon, 02 Jan 2006 15:04:05 +01:00", "2006-01-02T14:04:05Z"),
            ("Jan 02, 2006 3:04 PM", "2006-01-02T15:04:00Z"),
            ("Jan 02, 2006 12:30 AM", "2006-01-02T00:30:00Z"),                 // the hour after midnight
            ("Jan 02, 2006 12:30 PM", "2006-01-02T12:30:00Z"),                 // the hour after noon
            ("Jan 02, 2006 12:59:59 am", "2006-01-02T00:59:59Z"),
            ("02-Jan-2006 15:04:05 GMT", "2006-01-02T15:04:05Z"),
            ("Thu, 29 Feb 2024 12:00:00 GMT", "2024-02-29T12:00:00Z"),
            ("2006-01-02T15:04:05Z", "2006-01-02T15:04:05Z"),
            ("2006-01-02T15:04:05.123Z", "2006-01-02T15:04:05.123Z"),
            ("2006-01-02T15:04:05+07:00", "2006-01-02T08:04:05Z"),
            ("2006-01-02T15:04:05.5-03:30", "2006-01-02T18:34:05.5Z"),
            ("2006-01-02t15:04:05z", "2006-01-02T15:04:05Z"),
            ("2024-01-01 12:00:00", "2024-01-01T12:00:00Z"),
            ("2024-01-01 12:00", "2024-01-01T12:00:00Z"),
            ("2024-01-01", "2024-01-01T00:00:00Z"),
            ("2006-01-02T15:04:05+0700", "2006-01-02T08:04:05Z"),
            ("2006-01-02 15:04:05 UTC", "2006-01-02T15:04:05Z"),
        ]
        for (text, expected) in table {
            // When each is parsed
            let parsed = FeedDates.parse(text)

            // Then it is the instant it names
            XCTAssertEqual(parsed.map { $0.timeIntervalSince1970 }, date(expected).timeIntervalSince1970, text)
        }
    }

    func testShapesFromCapturedFeedsParse() {
        // Given shapes real feeds publish that the table above did not cover: single-digit hour,
        // minute or second, ISO dates with a space and a zone, zone names beyond RFC 822's
        let table: [(String, String)] = [
            ("2026-10-05T12:35:9+01:00", "2026-10-05T11:35:09Z"),
            ("Mon, 05 Oct 2026 12:35:9 +0100", "2026-10-05T11:35:09Z"),
            ("2026-10-05T9:5:03Z", "2026-10-05T09:05:03Z"),
            ("Mon, 5 Oct 2026 9:5 GMT", "2026-10-05T09:05:00Z"),
            ("2026-10-05 12:35:09 +01:00", "2026-10-05T11:35:09Z"),
            ("2026-10-05 12:35 Z", "2026-10-05T12:35:00Z"),
            ("2026-10-05T12:35:09.123456789-08:00", "2026-10-05T20:35:09.123Z"),
            ("MON, 05 OCT 2026 12:35:09 UT", "2026-10-05T12:35:09Z"),
            ("Mon, 05 Oct 26 12:35:09 PDT", "2026-10-05T19:35:09Z"),
            ("Mon, 05 Oct 2026 12:35:09 CEST", "2026-10-05T10:35:09Z"),
            ("Mon, 05 Oct 2026 12:35:09 CET", "2026-10-05T11:35:09Z"),
            ("Mon, 05 Oct 2026 12:35:09 AEST", "2026-10-05T02:35:09Z"),
            ("Mon, 05 Oct 2026 12:35:09 GMT+2", "2026-10-05T10:35:09Z"),
            ("Monday, October 5, 2026 12:35 PM EDT", "2026-10-05T16:35:00Z"),
        ]
        for (text, expected) in table {
            // When each is parsed
            let parsed = FeedDates.parse(text)

            // Then it is the instant it names (to the millisecond)
            XCTAssertEqual(parsed.map { ($0.timeIntervalSince1970 * 1000).rounded() },
                           (date(expected).timeIntervalSince1970 * 1000).rounded(), text)
        }
    }

    func testTextThatIsNoDateGivesNil() {
        // Given text that names no valid instant
        let table = [
            "", "   ", "yesterday", "Sunday, sometime", "Mon, 32 Jan 2024 10:00:00 GMT", "Fri, 29 Feb 2023 12:00:00 GMT",
            "2026-13-45T99:00:00Z", "2024-01-01T25:00:00Z", "Mon, 02 Foo 2006 15:04:05 GMT",
            "Mon, 02 Jan 2006 15:04:05 +9999", "12:00", "2006-01-02T15:04:05Q1",
        ]
        for text in table {
            // When each is parsed
            // Then it is nil
            XCTAssertNil(FeedDates.parse(text), text)
        }
    }

    func testLeniencyTheOtherTablesDoNotShow() {
        // Given sloppy shapes each repaired on top of RFC822 or ISO8601, with the instant each names
        let table: [(String, String)] = [
            ("Mon, 02 Jan 2006 15:04:05.250 GMT", "2006-01-02T15:04:05.250Z"),   // a fraction RFC 822 cannot say
            ("Mon, 02 Jan 106 15:04:05 GMT", "2006-01-02T15:04:05Z"),            // 3-digit year: + 1900
            ("Mon, 02 Jan 49 15:04:05 GMT", "2049-01-02T15:04:05Z"),             // RFC 2822: 00-49 are 20xx
            ("Mon, 02 Jan 50 15:04:05 GMT", "1950-01-02T15:04:05Z"),             // and 50-99 19xx
            ("Sunday, 06-Nov-60 08:49:37 GMT", "1960-11-06T08:49:37Z"),          // also in RFC 850's form
            ("2006 Jan 02 15:04:05 GMT", "2006-01-02T15:04:05Z"),                // a four-digit year first
            ("15:04:05 Mon 02 Jan 2006", "2006-01-02T15:04:05Z"),                // the time first
            ("Mon, 02 Jan 2006", "2006-01-02T00:00:00Z"),                        // no time
            ("Mon, 02 Jan 2006 15:04:05z", "2006-01-02T15:04:05Z"),              // zone glued to the time
            ("Mon, 02 Jan 2006 15:04:05+0100", "2006-01-02T14:04:05Z"),
            ("Jan 02, 2006 3:04pm", "2006-01-02T15:04:00Z"),                     // am/pm glued or dotted
            ("Jan 02, 2006 12:04 a.m.", "2006-01-02T00:04:00Z"),
            ("Jan 02, 2006 12:04 p.m.", "2006-01-02T12:04:00Z"),
            ("Mon., 02 Jan. 2006 15:04:05 GMT", "2006-01-02T15:04:05Z"),
            ("Mon, 02 Janu 2006 15:04:05 GMT", "2006-01-02T15:04:05Z"),          // a month's name cut short
            ("Mon, 02 Jan 2006 15:04:05 M", "2006-01-02T03:04:05Z"),             // military M is UTC+12
            ("Mon, 02 Jan 2006 15:04:05 Y", "2006-01-03T03:04:05Z"),             // and Y UTC-12
            ("Mon, 02 Jan 2006 15:04:05 NZDT", "2006-01-02T02:04:05Z"),
            ("Mon, 02 Jan 2006 15:04:05 UTC-05:00", "2006-01-02T20:04:05Z"),
            ("Mon, 02 Jan 2006 15:04:05 -5", "2006-01-02T20:04:05Z"),
            ("2006/01/02 15:04:05", "2006-01-02T15:04:05Z"),
            ("2006-01-02T15:04:05,5Z", "2006-01-02T15:04:05.5Z"),                // a comma before the fraction
            ("2006-01-02T15:04:05.123456789123Z", "2006-01-02T15:04:05.123456789Z"),
            ("2006-01-02T15:04:05 cest", "2006-01-02T13:04:05Z"),
            ("2006-01-02T15:04:05 gmt+1", "2006-01-02T14:04:05Z"),
            ("2006-01-02+01:00", "2006-01-01T23:00:00Z"),                        // a date with a zone
            // One rule for a leap second in every reader: the next minute's first, as ISO8601 and
            // the HTTP dates read it.
            ("2016-12-31T23:59:60Z", "2017-01-01T00:00:00Z"),
            ("Sat, 31 Dec 2016 23:59:60 GMT", "2017-01-01T00:00:00Z"),
        ]
        for (text, expected) in table {
            // When each is parsed
            let parsed = FeedDates.parse(text)

            // Then it is the instant it names
            XCTAssertEqual(parsed.map { $0.timeIntervalSince1970 }, date(expected).timeIntervalSince1970, text)
        }
    }

    func testSloppyTextThatStillNamesNoDateGivesNil() {
        // Given text the repairs cannot make a date of
        let table = [
            "Mon, 02 Janitor 2006 15:04:05 GMT", "Mon, 02 Jan Feb 2006 15:04:05 GMT", "Mon, 02 Jan 2006 13:04 pm",
            "Mon, 02 Jan 2006 0:04 am", "Mon, 02 Jan 2006 15:04:05 J", "Mon, 02 Jan 2006 15:04:05 IST",
            "Mon, 02 Jan 12345 15:04:05 GMT", "Mon, 02 Jan 2006 15:04:05 15:04:05", "Mon, 02 2006 15:04:05 GMT",
            "Mon, 02 Jan 2006 15:04:05 (UTC) GMT (UTC", "2006-01-02T15:04:05 +15", "2006-01-02T15:04:05 +01:00:00",
            "Mon, 02 Jan 2006 15:04:05" + String(repeating: " ", count: 60) + "GMT",   // 80 characters or more
        ]
        for text in table {
            // When each is parsed
            // Then it is nil
            XCTAssertNil(FeedDates.parse(text), text)
        }
    }

    func testNearMissesOfTheStandardFormAreRepairedOrRefused() {
        // Given text RFC822 reads, and text just off its form, which goes on to the repairs
        let table: [(String, String?)] = [
            ("", nil),
            ("Tue, 10 Jun 2003 04:00:00 EST", "2003-06-10T09:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 CEST", "2003-06-10T02:00:00Z"),
            ("Tue, 10 Jun 2003 04:00 GMT", "2003-06-10T04:00:00Z"),
            ("Tue, 10 Jun 2003 4:00:00 GMT", "2003-06-10T04:00:00Z"),
            ("Tue, 10 Jun 03 04:00:00 GMT", "2003-06-10T04:00:00Z"),
            ("Tue,10 Jun 2003 04:00:00 GMT", "2003-06-10T04:00:00Z"),
            ("Tuesday, 10 Jun 2003 04:00:00 GMT", "2003-06-10T04:00:00Z"),
            ("Tue, 10 June 2003 04:00:00 GMT", "2003-06-10T04:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00.5 GMT", "2003-06-10T04:00:00.5Z"),
            ("Tue, 10 Jun 2003 04:00:00 GMT junk", nil),
            ("Tue, 10 Jun 2003 04:00:00 +01", "2003-06-10T03:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 +1500", "2003-06-09T13:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 +0160", nil),
            ("Tue, 10 Jun 2003 04:00:00", "2003-06-10T04:00:00Z"),
            ("Tue, 123 Jun 2003 04:00:00 GMT", nil),
            ("Tue, 10 Déc 2003 04:00:00 GMT", nil),
            ("Tue, 10 Jun 2003 04:00:00 GMT\u{301}", nil),
            ("Ţue, 10 Jun 2003 04:00:00 GMT", nil),
            ("Tue, 10 Jun 2003 04:00:00 ＋0100", nil),
            ("Tue, 10 Xyz 2003 04:00:00 GMT", nil),
            ("Tue, 1O Jun 2003 04:00:00 GMT", nil),
            ("Tue; 10 Jun 2003 04:00:00 GMT", "2003-06-10T04:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:0/ GMT", nil),
            ("Tue, 10 Jun 2003 04:00:00 +01/0", nil),
            ("Tue13 Nov 2012 15:45:00 PST", nil),
        ]
        for (text, expected) in table {
            // When each is parsed
            let parsed = FeedDates.parse(text)

            // Then it is the instant it names, or nil
            XCTAssertEqual(parsed.map { $0.timeIntervalSince1970 }, expected.map { date($0).timeIntervalSince1970 }, text)
        }
    }

    func testTheCommonFormReadsToItsInstantInFeedsToo() {
        // The form nearly every feed writes: FeedDates reads it through RFC822 before any repair.
        let table: [(String, String)] = [
            ("Tue, 10 Jun 2003 04:00:00 GMT", "2003-06-10T04:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 UT", "2003-06-10T04:00:00Z"),
            ("tue, 10 JUN 2003 04:00:00 utc", "2003-06-10T04:00:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 +0530", "2003-06-09T22:30:00Z"),
            ("Tue, 10 Jun 2003 04:00:00 -0945", "2003-06-10T13:45:00Z"),
            ("10 Jun 2003 04:00:00 +0000", "2003-06-10T04:00:00Z"),
            ("Sat, 1 Jan 2000 23:59:59 -1400", "2000-01-02T13:59:59Z"),
            ("Thu, 29 Feb 2024 12:00:00 GMT", "2024-02-29T12:00:00Z"),
            (" \n\tWed, 31 Dec 2025 00:00:00 +0100 \r\n", "2025-12-30T23:00:00Z"),
            ("\u{A0}Wed, 31 Dec 2025 00:00:00 +0100\u{3000}", "2025-12-30T23:00:00Z"),   // Unicode's white space
        ]
        for (text, expected) in table {
            XCTAssertEqual(RFC822.parse(text), date(expected), text)
            XCTAssertEqual(FeedDates.parse(text), date(expected), text)
        }
    }

    func testOutOfRangeFieldsAreNoDate() {
        for text in ["Tue, 31 Feb 2003 04:00:00 GMT", "Tue, 00 Jun 2003 04:00:00 GMT", "Tue, 10 Jun 2003 24:00:00 GMT",
                     "Tue, 10 Jun 2003 04:60:00 GMT", "Sat, 29 Feb 2003 04:00:00 GMT"] {
            XCTAssertNil(RFC822.parse(text), text)
            XCTAssertNil(FeedDates.parse(text), text)
        }
    }
}
