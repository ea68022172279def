import Foundation
import XCTest
import HeadlinesCore
import HeadlinesSources

/// Charsets as real feeds get them wrong or right: BOM, then the XML declaration, then the HTTP
/// Content-Type; where the label contradicts the bytes, UTF-8 then Windows-1252, as feed readers do.
final class CharsetFixtureTests: XCTestCase {
    private func titles(_ document: FeedDocument) -> [String?] { [document.title] + document.items.map(\.title) }

    func testDeclaredLatin1ButTheBytesAreUTF8() throws {
        // Given a feed that says ISO-8859-1 but is written in UTF-8
        // When it is parsed
        let document = try FeedFixture.parse("declared-latin1-but-utf8.xml")

        // Then the bytes win: no mojibake ("CafÃ©")
        XCTAssertEqual(titles(document), ["Café crème", "Déjà vu – “quoted”"])
    }

    func testUndeclaredLatin1IsReadAsWindows1252() throws {
        // Given a feed with no declaration at all, in Latin-1 with a Windows quote (0x92)
        // When it is parsed
        let document = try FeedFixture.parse("undeclared-latin1.xml")

        // Then it is not valid UTF-8, so it is read as Windows-1252
        XCTAssertEqual(titles(document), ["Café", "Grüße aus Köln"])
        XCTAssertEqual(document.items.first?.summary, "l’été")
    }

    func testDeclaredUTF8ButTheBytesAreLatin1() throws {
        // Given a feed that says UTF-8 and is Latin-1
        // When it is parsed
        let document = try FeedFixture.parse("declared-utf8-but-latin1.xml")

        // Then the letters survive instead of becoming U+FFFD or losing the feed
        XCTAssertEqual(titles(document), ["Café", "Grüße aus Köln"])
    }

    func testLegacyCharsetsGoThroughIconv() throws {
        // Given feeds declared gb2312, KOI8-R and Shift_JIS, each in its charset
        let cases: [(String, [String?])] = [
            ("gb2312.xml", ["新闻", "中国经济增长"]),
            ("koi8-r.xml", ["Новости", "Привет, мир"]),
            ("shift_jis.xml", ["ニュース", "東京で雪が降った"]),
        ]
        for (name, expected) in cases {
            // When each is parsed
            let document = try FeedFixture.parse(name)

            // Then each reads in its own script
            XCTAssertEqual(titles(document), expected, name)
        }
    }

    func testUTF16WithoutABOM() throws {
        // Given a UTF-16 LE feed with no BOM
        // When it is parsed
        let document = try FeedFixture.parse("utf16le-no-bom.xml")

        // Then the zero bytes give it away and every character survives, the emoji included
        XCTAssertEqual(titles(document), ["Ça va", "Naïve 東京 👋"])
    }

    func testTheContentTypeCharsetCountsWhenTheBodyNamesNone() throws {
        // Given a KOI8-R feed without a declaration, served as charset=KOI8-R
        let data = try FeedFixture.data("koi8-r-undeclared.xml")

        // When it is parsed with and without the header
        let withHeader = try FeedParser.parse(data, baseURL: nil, contentType: "application/rss+xml; charset=\"KOI8-R\"")
        let without = try FeedParser.parse(data, baseURL: nil)

        // Then the header's charset is used; without it the bytes are guessed as Windows-1252
        XCTAssertEqual(titles(withHeader), ["Новости", "Привет, мир"])
        XCTAssertNotEqual(titles(without), titles(withHeader))
    }

    func testTheDeclarationBeatsTheContentType() throws {
        // Given a feed declared KOI8-R, served with a wrong charset=windows-1251 header
        let data = try FeedFixture.data("koi8-r.xml")

        // When it is parsed
        let document = try FeedParser.parse(data, baseURL: nil, contentType: "text/xml; charset=windows-1251")

        // Then the declaration wins
        XCTAssertEqual(titles(document), ["Новости", "Привет, мир"])
    }

    func testAnUnknownLabelFallsBackToSniffing() throws {
        // Given a UTF-8 feed whose declaration names a charset no one knows
        // When it is parsed
        let document = try FeedFixture.parse("unknown-label.xml")

        // Then it is read as if undeclared: valid UTF-8
        XCTAssertEqual(titles(document), ["Café", "Grüße"])
    }
}
