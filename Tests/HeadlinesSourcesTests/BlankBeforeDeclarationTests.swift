import Foundation
import XCTest
import HeadlinesCore
import HeadlinesSources

/// Blanks before `<?xml`, WordPress's best-known feed fault (a plugin or a theme file printing
/// them first), are not the feed: it reads as if they were not there, as python-feedparser reads it.
final class BlankBeforeDeclarationTests: XCTestCase {
    func testABlankLineAndAByteOrderMarkBeforeTheDeclaration() throws {
        // Given a WordPress feed whose first bytes are a newline, then a BOM, then <?xml
        // When it is parsed
        let document = try FeedFixture.parse("blank-line-before-declaration.xml")

        // Then it has the items python-feedparser 6.0.10 reads: titles, links, ids and dates
        XCTAssertEqual(document.title, "Garden Notes")
        XCTAssertEqual(document.items.map(\.title), ["Planting garlic before the frost", "Leaf mould: a year on"])
        XCTAssertEqual(document.items.map(\.link?.absoluteString), ["https://garden.example.org/2026/11/planting-garlic/",
                                                                   "https://garden.example.org/2026/11/leaf-mould/"])
        XCTAssertEqual(document.items.map(\.id), ["https://garden.example.org/?p=412", "https://garden.example.org/?p=405"])
        XCTAssertEqual(document.items.map { $0.published?.timeIntervalSince1970 }, [1_796_026_364, 1_795_282_802])
    }

    func testEveryKindOfBlankBeforeTheDeclaration() throws {
        let feed = #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>T</title><item><title>One</title><link>https://e.example/1</link></item></channel></rss>"#
        // No-break space, zero-width space, ideographic space, a BOM after a blank, blanks and BOMs mixed
        for blank in ["\u{A0}", "\u{200B}", "\u{3000}", " \u{FEFF}", "\r\n\u{FEFF}\u{A0}\t\n", "\u{FEFF}\n\u{FEFF}"] {
            let items = try FeedParser.parse(Data((blank + feed).utf8), baseURL: nil).items
            XCTAssertEqual(items.map(\.title), ["One"], "\(blank.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
