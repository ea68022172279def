import XCTest
@testable import FeedXML

/// The repairs before libxml2 and the charset decoding, pinned on the awkward cases (character
/// references out of range or cut short, named references known and unknown, controls inside and
/// outside CDATA, bytes that are not UTF-8, the C1 range of Windows-1252): the expected outputs
/// are what these passes gave before they were rewritten to copy runs of bytes.
final class CleanupAndCharsetTests: XCTestCase {
    func testReferencesControlsAndDeclarationsAreRepairedAsBefore() {
        let inputs: [[UInt8]] = [
            Array(("<a>&#x41;&#65;&#0;&#9;&#xD800;&#xFFFE;&#x110000;&#99999999999;&#4294967296;&#x100000000;"
                + "&#12a;&#x;&#;&#X1F600;&#x1f600;</a>").utf8),
            Array(("<a>&amp;&lt;&gt;&quot;&apos;&nbsp;&eacute;&Eacute;&bogus;& x &#38; &AMP; &amp "
                + "&a1234567890123456789012345678901234567890;</a>").utf8),
            Array("<a><![CDATA[x\u{1}&y\u{FFFE}]]><!-- c\u{2} --> 1 < 2 <= 3 <9 a\u{1}b\u{FFFF}c\u{FFFE}</a>".utf8),
            [0xEF, 0xBB, 0xBF] + Array("<?xml version='1.0' encoding='latin1'?>\n<a>\n&#10;</a>".utf8),
            Array("  <!-- x --> <?xml version=\"1.0\"?><a/>".utf8),
        ]
        let expected = [
            "<a>&#x41;&#65;&#9;&#38;#;&#X1F600;&#x1f600;</a>",
            "<a>&#38;&#60;&#62;&#34;&#39;&#160;&#233;&#201;&#38;bogus;&#38; x &#38; &#38;AMP; &#38;amp &#38;a1234567890123456789012345678901234567890;</a>",
            "<a><![CDATA[x&y\u{FFFE}]]><!-- c --> 1 &#60; 2 &#60;= 3 &#60;9 abc</a>",
            "\u{A}<a>\u{A}&#10;</a>",
            "  <!-- x --> <a/>",
        ]
        XCTAssertEqual(inputs.map { String(decoding: FeedXMLCleanup.clean($0), as: UTF8.self) }, expected)
    }

    func testCharsetsDecodeAsBefore() {
        let inputs: [[UInt8]] = [
            [0x41, 0x80, 0x9F, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xFF, 0xC0, 0xAF, 0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80,
             0xF0, 0x9F, 0x98, 0x80, 0xE2, 0x82],
            Array(repeating: 0x41, count: 17) + [0x81, 0x8D, 0x8F, 0x90, 0x9D] + Array(repeating: 0x42, count: 9),
            Array("<?xml version='1.0' encoding='windows-1252'?><a>caf\u{E9}</a>".utf8),
            [0x3C, 0x61, 0x3E, 0xE9, 0x3C, 0x2F, 0x61, 0x3E],
            // A byte that is not ASCII last in an eight-byte word, then first in one.
            Array(repeating: 0x41, count: 7) + [0x81] + Array(repeating: 0x42, count: 8) + [0xC3, 0xA9] + Array(repeating: 0x43, count: 6),
        ]
        var got: [String] = []
        for input in inputs {
            got.append(String(decoding: FeedCharset.lenientUTF8(input[...]), as: UTF8.self))
            got.append(String(decoding: FeedCharset.windows1252(input[...]), as: UTF8.self))
            got.append(String(FeedCharset.isUTF8WithNonASCII(input)))
            for label in [nil, "text/xml; charset=iso-8859-1", "text/xml; charset=utf-8", "text/xml; charset=koi8-r"] {
                got.append(String(decoding: FeedCharset.utf8(input, contentType: label), as: UTF8.self))
            }
        }
        let expected = [
            "A€Ÿé€ÿÀ¯í\u{A0}€ô\u{90}€€😀â‚",
            "A€ŸÃ©â‚¬ÿÀ¯í\u{A0}€ô\u{90}€€ðŸ˜€â‚",
            "false",
            "A€Ÿé€ÿÀ¯í\u{A0}€ô\u{90}€€😀â‚",
            "A€ŸÃ©â‚¬ÿÀ¯í\u{A0}€ô\u{90}€€ðŸ˜€â‚",
            "A€Ÿé€ÿÀ¯í\u{A0}€ô\u{90}€€😀â‚",
            "A─÷ц╘Б┌╛Ъю╞М═─Т░──П÷≤─Б┌",
            "AAAAAAAAAAAAAAAAA\u{81}\u{8D}\u{8F}\u{90}\u{9D}BBBBBBBBB",
            "AAAAAAAAAAAAAAAAA\u{81}\u{8D}\u{8F}\u{90}\u{9D}BBBBBBBBB",
            "false",
            "AAAAAAAAAAAAAAAAA\u{81}\u{8D}\u{8F}\u{90}\u{9D}BBBBBBBBB",
            "AAAAAAAAAAAAAAAAA\u{81}\u{8D}\u{8F}\u{90}\u{9D}BBBBBBBBB",
            "AAAAAAAAAAAAAAAAA\u{81}\u{8D}\u{8F}\u{90}\u{9D}BBBBBBBBB",
            "AAAAAAAAAAAAAAAAA│█▐░²BBBBBBBBB",
            "<?xml version='1.0' encoding='windows-1252'?><a>café</a>",
            "<?xml version='1.0' encoding='windows-1252'?><a>cafÃ©</a>",
            "true",
            "<?xml version='1.0' encoding='windows-1252'?><a>café</a>",
            "<?xml version='1.0' encoding='windows-1252'?><a>café</a>",
            "<?xml version='1.0' encoding='windows-1252'?><a>café</a>",
            "<?xml version='1.0' encoding='windows-1252'?><a>café</a>",
            "<a>é</a>",
            "<a>é</a>",
            "false",
            "<a>é</a>",
            "<a>é</a>",
            "<a>é</a>",
            "<a>И</a>",
            "AAAAAAA\u{81}BBBBBBBBéCCCCCC",
            "AAAAAAA\u{81}BBBBBBBBÃ©CCCCCC",
            "false",
            "AAAAAAA\u{81}BBBBBBBBéCCCCCC",
            "AAAAAAA\u{81}BBBBBBBBÃ©CCCCCC",
            "AAAAAAA\u{81}BBBBBBBBéCCCCCC",
            "AAAAAAA│BBBBBBBBц╘CCCCCC",
        ]
        XCTAssertEqual(got, expected)
    }
}
