import Foundation
import HeadlinesCore
import XCTest

/// GKeyFile has no inline comments, so a value that looks like it carries one gets a
/// warning naming the key and the file (or, when it makes the value invalid, says so in the
/// error); an unterminated quote in `[bar] launcher` is a config error when the file loads.
final class ConfigCommentAndLauncherTests: XCTestCase {
    private let file = "/home/u/.config/headlines/headlines.conf"

    func testAnInlineCommentInAnAcceptedValueIsAWarning() throws {
        let config = try Config.parse(groups: ["source": ["provider": "json", "url": "https://api.example.com/posts",
                                                          "title-path": "title  # the headline"]], file: file)
        XCTAssertEqual(config.warnings, ["\(file): [source] title-path ends in '# the headline', which looks like an inline comment but is part of the value (GKeyFile has none): move it to its own line."])
    }

    func testAValueThatIsOnlyACommentWarnsToo() throws {
        let config = try Config.parse(groups: ["source": ["provider": "json", "url": "https://api.example.com/posts",
                                                          "items-path": "# empty: the document is the list"]], file: file)
        XCTAssertEqual(config.warnings.count, 1)
        XCTAssertTrue(config.warnings[0].contains("[source] items-path") && config.warnings[0].contains(file), config.warnings[0])
    }

    func testAnInlineCommentThatBreaksAValueSaysSoInTheError() {
        XCTAssertThrowsError(try Config.parse(groups: ["source": ["provider": "json  ; keyless"]], file: file)) { error in
            let message = (error as? ConfigError)?.message ?? ""
            XCTAssertTrue(message.hasPrefix("\(file): [source] provider = 'json  ; keyless' is not valid; GKeyFile has no inline comments"), message)
        }
    }

    func testPlainValuesAndFeedSeparatorsGiveNoWarning() throws {
        let config = try Config.parse(groups: ["source": ["provider": "feeds", "feeds": "https://a.example/rss ; https://b.example/atom",
                                                          "query": "climate"],
                                               "bar": ["launcher": "rofi -dmenu -p 'Top headlines'"]], file: file)
        XCTAssertEqual(config.warnings, [])
        XCTAssertEqual(config.launcher, "rofi -dmenu -p 'Top headlines'")
    }

    func testAnUnterminatedQuoteInTheLauncherIsAConfigError() {
        for bad in ["rofi -dmenu -p 'Headlines", "wofi --prompt \"News", "dmenu -p News\\"] {
            XCTAssertThrowsError(try Config.parse(groups: ["bar": ["launcher": bad]], file: file), bad) { error in
                let message = (error as? ConfigError)?.message ?? ""
                XCTAssertTrue(message.hasPrefix("\(file): [bar] launcher = '\(bad)' "), message)
                XCTAssertTrue(message.contains("unterminated") || message.contains("backslash"), message)
            }
        }
        XCTAssertNil(ShellWords.problem(in: #"rofi -p "it's \"news\"" -i"#))
    }
}
