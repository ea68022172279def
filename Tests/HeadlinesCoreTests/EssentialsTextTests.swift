import Foundation
import XCTest
@testable import HeadlinesCore

/// The FoundationEssentials stand-ins for Foundation's ICU-backed helpers, checked against what
/// Foundation itself answers (tests may import Foundation).
final class EssentialsTextTests: XCTestCase {
    func testTrimmedMatchesFoundationOnWhitespaceAndNewlines() {
        for s in ["", "   ", " a ", "\t\n a b \r\n", "a", "\u{00A0}x\u{2003}", "x\n", "\n\nx y\n\n"] {
            XCTAssertEqual(s.trimmed(), s.trimmingCharacters(in: .whitespacesAndNewlines), "for \(s.debugDescription)")
        }
    }

    func testReplacingAllAndCaseInsensitiveEquality() {
        XCTAssertEqual("a+b+c".replacingAll("+", with: "%2B"), "a%2Bb%2Bc")
        XCTAssertEqual("key key".replacingAll("key", with: "[redacted]"), "[redacted] [redacted]")
        XCTAssertEqual("abc".replacingAll("", with: "x"), "abc")
        XCTAssertTrue("BBC News".equalsIgnoringCase("bbc news"))
        XCTAssertTrue("Über".equalsIgnoringCase("über"))
        XCTAssertFalse("BBC".equalsIgnoringCase("CBS"))
        XCTAssertEqual("a\u{7}b\u{1B}[31mc\u{9B}".removingControlCharacters(), "ab[31mc")
    }

    /// The stdlib-only search answers what _StringProcessing's `firstRange(of:)` and
    /// `replacing(_:with:)` answer (the tests may use those; the host's code does not).
    func testRangeOfTextAndReplacingAllAgreeWithStringProcessing() {
        let texts = ["", "a", "aaa", "abcabc", ".x.tmp-123-9", "x #y ;z", "ab", "é e\u{301} é", "🇫🇷🇫🇷x", "a\r\nb\r\n"]
        let targets = ["a", "aa", "abc", ".tmp-", " #", " ;", "é", "e", "🇫🇷", "\r\n", "\n", "zz"]
        for text in texts {
            for target in targets {
                let ours = text.rangeOfText(target).map { text.distance(from: text.startIndex, to: $0.lowerBound) }
                let theirs = text.firstRange(of: target).map { text.distance(from: text.startIndex, to: $0.lowerBound) }
                XCTAssertEqual(ours, theirs, "range of \(target.debugDescription) in \(text.debugDescription)")
                XCTAssertEqual(text.replacingAll(target, with: "<\(target)>"), text.replacing(target, with: "<\(target)>"),
                               "replacing \(target.debugDescription) in \(text.debugDescription)")
            }
            XCTAssertNil(text.rangeOfText(""))
        }
    }

    func testFixedDecimalsMatchPrintf() {
        for (value, decimals) in [(0.0, 0), (12.4, 0), (12.6, 0), (3.14159, 2), (-2.5, 1), (1234.5678, 3), (0.05, 1), (-0.04, 1), (7, 2)] {
            let expected = String(format: "%.\(decimals)f", value).replacingOccurrences(of: "-0.0", with: "0.0")
            XCTAssertEqual(NumberText.fixed(value, decimals), expected, "\(value) to \(decimals) places")
        }
        XCTAssertEqual(NumberText.padded(7, width: 2), "07")
        XCTAssertEqual(NumberText.padded(123, width: 2), "123")
    }

    func testPathPiecesAsNSStringGaveThem() {
        let cases: [(String, String, String)] = [
            ("/a/b/c", "/a/b", "c"), ("/a/b/", "/a", "b"), ("/c", "/", "c"), ("c", "", "c"),
            ("a/b", "a", "b"), ("/", "/", "/"), ("/a/.x.tmp-1", "/a", ".x.tmp-1"),
        ]
        for (path, directory, last) in cases {
            XCTAssertEqual(PathText.directory(of: path), directory, "directory of \(path)")
            XCTAssertEqual(PathText.lastComponent(of: path), last, "last component of \(path)")
        }
    }

    func testHTTPDatesInAllThreeFormsAgreeWithDateFormatter() {
        let expected = Date(timeIntervalSince1970: 784_111_777) // Sun, 06 Nov 1994 08:49:37 GMT
        XCTAssertEqual(RFC822.parse("Sun, 06 Nov 1994 08:49:37 GMT"), expected)
        XCTAssertEqual(RFC822.parse("Sunday, 06-Nov-94 08:49:37 GMT"), expected)
        XCTAssertEqual(RFC822.parse("Sun Nov  6 08:49:37 1994"), expected)
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        for text in ["Tue, 01 Dec 2026 09:16:20 GMT", "Thu, 29 Feb 2024 23:59:59 GMT", "Wed, 31 Dec 1969 00:00:00 GMT"] {
            XCTAssertEqual(RFC822.parse(text), f.date(from: text), text)
        }
        for bad in ["", "tomorrow", "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT"] {
            XCTAssertNil(RFC822.parse(bad), bad)
        }
    }
}
