import Foundation
import XCTest
@testable import HeadlinesCore
import TestSupport

final class ConfigTests: XCTestCase {
    let file = "/home/u/.config/headlines/headlines.conf"

    func testNoKeysGivesTheDocumentedDefaults() throws {
        let config = try Config.parse(groups: [:], file: file)
        XCTAssertEqual(config, Config())
        XCTAssertEqual(config.provider, .apitube)
        XCTAssertNil(config.baseURL)
        XCTAssertEqual([config.country, config.language, config.category, config.query], ["", "en", "", ""])
        XCTAssertEqual([config.pageSize, config.dailyBudget, config.maxPerRefresh, config.maxLength], [10, 48, 3, 60])
        XCTAssertNil(config.apiKeyFile)
        XCTAssertEqual([config.timeout, config.interval, config.rotate], [30, 1800, 0])
        XCTAssertTrue(config.notifyEnabled)
    }

    func testEveryKeyIsParsed() throws {
        // Given a file setting every key
        let groups = [
            "source": ["provider": "NewsAPI", "base-url": "http://127.0.0.1:8080", "country": "GB", "language": "De",
                       "category": "technology", "query": " climate ", "page-size": "25", "api-key-file": "~/.newsapi-key",
                       "timeout": "45s"],
            "refresh": ["interval": "1h30m", "daily-budget": "96"],
            "notify": ["enabled": "no", "max-per-refresh": "5"],
            "bar": ["rotate": "10s", "max-length": "80"],
        ]
        // When parsed
        let config = try Config.parse(groups: groups, file: file)
        // Then every field holds its value
        var expected = Config()
        expected.provider = .newsapi
        expected.providerIsExplicit = true
        expected.baseURL = url("http://127.0.0.1:8080")
        expected.country = "gb"
        expected.language = "de"
        expected.category = "technology"
        expected.query = "climate"
        expected.pageSize = 25
        expected.pageSizeIsExplicit = true
        expected.apiKeyFile = "~/.newsapi-key"
        expected.timeout = 45
        expected.interval = 5400
        expected.dailyBudget = 96
        expected.notifyEnabled = false
        expected.maxPerRefresh = 5
        expected.rotate = 10
        expected.maxLength = 80
        XCTAssertEqual(config, expected)
    }

    func testDurations() {
        let good: [(String, TimeInterval)] = [("90s", 90), ("30m", 1800), ("1h", 3600), ("1h30m", 5400), ("45", 45),
                                              (" 2H ", 7200), ("1d", 86400), ("0", 0), ("1m30s", 90), ("1.5m", 90)]
        for (text, seconds) in good { XCTAssertEqual(Duration.parse(text), seconds, text) }
        for text in ["3x", "-1", "", "   ", "m", "30m5", "1h-5m", "s30", "inf", "infinity", "nan"] {
            XCTAssertNil(Duration.parse(text), text)
        }
    }

    func testDurationFormat() {
        XCTAssertEqual([0, 45, 90, 1800, 3600, 5400, 3661].map(Duration.format), ["0s", "45s", "1m30s", "30m", "1h", "1h30m", "1h1m1s"])
    }

    func testUnknownGroupNamesFileGroupAndTheAcceptedGroups() {
        let error = thrownError { () throws(ConfigError) in try Config.parse(groups: ["sources": ["provider": "apitube"]], file: file) }
        XCTAssertEqual(error, ConfigError("\(file): unknown group [sources]; use [source], [refresh], [notify], [bar] or [widget NAME]."))
    }

    func testUnknownKeyNamesFileKeyAndTheAcceptedKeys() {
        let error = thrownError { () throws(ConfigError) in try Config.parse(groups: ["refresh": ["intervall": "30m"]], file: file) }
        XCTAssertEqual(error, ConfigError("\(file): unknown key 'intervall' in [refresh]; accepted keys are daily-budget, interval."))
    }

    func testBadValueMessageIsExact() {
        let error = thrownError { () throws(ConfigError) in try Config.parse(groups: ["refresh": ["interval": "3x"]], file: file) }
        XCTAssertEqual(error, ConfigError("\(file): [refresh] interval = '3x' is not valid; use a duration from 1s to 24h, such as 30m."))
    }

    func testBadValuesForEveryKeyAreRefused() {
        let bad: [(String, String, [String])] = [
            ("source", "provider", ["rss", ""]),
            ("source", "base-url", ["ftp://x.example", "not a url", "javascript:alert(1)", ""]),
            ("source", "country", ["usa", "1a", "u"]),
            ("source", "language", ["eng", "e1"]),
            ("source", "page-size", ["0", "101", "ten", "-5", ""]),
            ("source", "api-key-file", ["", "  "]),
            ("source", "timeout", ["0", "0.5s", "6m", "3x", ""]),
            ("refresh", "interval", ["0", "25h", "-1", "3x", ""]),
            ("refresh", "daily-budget", ["0", "86401", "many"]),
            ("notify", "enabled", ["maybe", ""]),
            ("notify", "max-per-refresh", ["0", "51", "x"]),
            ("bar", "rotate", ["0.5s", "-1", "3x", "inf"]),
            ("bar", "max-length", ["9", "501", "wide"]),
        ]
        for (group, key, values) in bad {
            for value in values {
                let error = thrownError { () throws(ConfigError) in
                    try Config.parse(groups: [group: [key: value]], file: file)
                }
                let message = error?.message ?? ""
                XCTAssertTrue(message.hasPrefix(file + ": [\(group)] \(key) = '"), "\(key)=\(value): \(message)")
                XCTAssertTrue(message.contains("is not valid; use "), "\(key)=\(value): \(message)")
            }
        }
    }

    func testBooleanSpellings() throws {
        for (text, value) in [("true", true), ("Yes", true), ("on", true), ("1", true), ("FALSE", false), ("off", false), ("0", false)] {
            XCTAssertEqual(try Config.parse(groups: ["notify": ["enabled": text]], file: file).notifyEnabled, value, text)
        }
    }

    func testTheSourceDigestIsTheOneLedgersOnDiskHold() throws {
        // A changed digest reads as a changed source: every host would reload at once on its next start.
        XCTAssertEqual(Config().sourceIdentity, "91c179543dd2114e")
        // Fifteen digits: the digest was never padded, unlike a headline's key.
        let config = try Config.parse(groups: ["source": ["provider": "reddit", "subreddits": "linux+s8", "sort": "new"]],
                                      file: file)
        XCTAssertEqual(config.sourceIdentity, "c00d72ca30e0a92")
    }
}

/// `[notify] keywords` and `mute-words`.
final class KeywordConfigTests: XCTestCase {
    let file = "/home/u/.config/headlines/headlines.conf"

    func testKeywordListsSplitAtSemicolonsAndCommasWithOptionalQuotes() throws {
        let config = try Config.parse(groups: ["notify": [
            "keywords": #"AI; "climate change", Zürich;; 'São Paulo' ; "Smith, John""#,
            "mute-words": "gossip,horoscope",
        ]], file: file)
        XCTAssertEqual(config.keywords, ["AI", "climate change", "Zürich", "São Paulo", "Smith, John"])
        XCTAssertEqual(config.muteWords, ["gossip", "horoscope"])
        XCTAssertEqual(config.warnings, [], "a ; in a list is a separator, not an inline comment")
    }

    func testAWidgetHasItsOwnKeywordsOverTheTopLevelOnes() throws {
        let config = try Config.parse(groups: ["notify": ["keywords": "AI", "mute-words": "gossip"],
                                               "widget tech": ["keywords": "Linux; \"open source\""],
                                               "widget world": [:]], file: file)
        XCTAssertEqual(try config.widget(named: "tech", file: file).keywords, ["Linux", "open source"])
        XCTAssertEqual(try config.widget(named: "tech", file: file).muteWords, ["gossip"], "left out: the top-level value")
        XCTAssertEqual(try config.widget(named: "world", file: file).keywords, ["AI"])
    }

    func testEmptyListsAreOff() throws {
        let config = try Config.parse(groups: ["notify": ["keywords": "", "mute-words": " ; "]], file: file)
        XCTAssertEqual(config.keywords, [])
        XCTAssertEqual(config.muteWords, [])
        XCTAssertEqual(try Config.parse(groups: [:], file: file).keywords, [])
    }
}
