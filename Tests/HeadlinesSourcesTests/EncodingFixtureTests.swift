import Foundation
import XCTest
import HeadlinesCore
import HeadlinesSources
import TestSupport

/// Feeds in the encodings XMLParser on Linux does not reliably honour, decoded into whole values.
final class EncodingFixtureTests: XCTestCase {
    func testUTF16LittleEndianWithABOM() throws {
        // Given a feed stored as UTF-16 LE with a BOM, with accents, CJK and an emoji
        // When it is parsed
        let document = try FeedFixture.parse("utf16-bom.xml")

        // Then every character survives
        XCTAssertEqual(document, FeedDocument(
            title: "Café Zeitung — Ausgabe ☕", link: url("https://zeitung.example.de/"),
            items: [FeedItem(title: "Naïve Bäume wachsen in 東京", link: url("https://zeitung.example.de/artikel/1"),
                             published: date("2026-12-01T08:00:00Z"), summary: "Grüße aus Köln 👋")]))
    }

    func testISO88591IsReadAsWindows1252AsBrowsersDo() throws {
        // Given a feed declared ISO-8859-1, with é, £, ©, ½ and a stray 0x92 (a Windows quote)
        // When it is parsed
        let document = try FeedFixture.parse("iso-8859-1.xml")

        // Then the letters are right and 0x92 is ’ rather than an invisible control character
        XCTAssertEqual(document, FeedDocument(
            title: "Le Café du Commerce", link: url("http://cafe.example.fr/"),
            items: [FeedItem(title: "Crème brûlée à £5 © Müller", link: url("http://cafe.example.fr/menu?plat=cr%C3%A8me"),
                             id: "menu-1", published: date("2026-12-02T11:00:00Z"),
                             summary: "Deux ½ portions, s’il vous plaît.")]))
    }

    func testWindows1252WithEuroAndCurlyQuotes() throws {
        // Given a feed declared windows-1252 with €, “ ”, ‘ ’, –, —, … and œ as single bytes
        // When it is parsed
        let document = try FeedFixture.parse("windows-1252.xml")

        // Then each is the right character
        XCTAssertEqual(document, FeedDocument(
            title: "Prix en €", link: url("https://prix.example.fr/"),
            items: [FeedItem(title: "“Le prix” – 10 € seulement…", link: url("https://prix.example.fr/offre"),
                             published: date("2026-12-03T08:30:00Z"),
                             summary: "C’est l’offre de l’été : ‘bon marché’ — œuvre incluse.")]))
    }

    func testUTF8WithABOMAndUTF16BigEndian() throws {
        // Given the same small feed as UTF-8 with a BOM and as UTF-16 BE with a BOM
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><rss version=\"2.0\"><channel><title>Ça va</title></channel></rss>"
        let utf8 = Data([0xEF, 0xBB, 0xBF]) + Data(xml.replacingOccurrences(of: "UTF-16", with: "UTF-8").utf8)
        let utf16BE = Data([0xFE, 0xFF]) + xml.data(using: .utf16BigEndian)!

        // When both are parsed
        // Then both read the same
        for data in [utf8, utf16BE] {
            XCTAssertEqual(try FeedParser.parse(data, baseURL: nil), FeedDocument(title: "Ça va"))
        }
    }
}
