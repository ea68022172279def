import Foundation
import HeadlinesCore
import TestSupport
import XCTest

/// `provider = guardian`, `nyt` and `gnews` against a loopback server answering in each API's
/// shape. These APIs take the key only as a query parameter: it must reach the server there and
/// nowhere else, and never the screen, the cache or any other file.
final class KeyedProviderEndToEndTests: EndToEndTestCase {
    static let guardianKey = "SECRET-guardian-abc"
    static let nytKey = "SECRET-nyt-abc"
    static let gnewsKey = "SECRET-gnews+abc"

    func fetch(_ provider: String, env: [String: String], config: String = "") throws -> CLIRunner.Result {
        try cli.writeConfig("[source]\nprovider = \(provider)\nbase-url = \(server.baseURL.absoluteString)\n" + config)
        return try cli.run(["fetch"], environment: env)
    }

    /// Fails when `key` is in the run's output or in any file under the run's folders.
    func assertKeyNowhere(_ key: String, _ run: CLIRunner.Result, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertFalse(run.stdout.contains(key), "stdout holds the key", file: file, line: line)
        XCTAssertFalse(run.stderr.contains(key), "stderr holds the key: \(run.stderr)", file: file, line: line)
        let encoded = key.replacingOccurrences(of: "+", with: "%2B")
        let walker = FileManager.default.enumerator(at: cli.root, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            XCTAssertFalse(text.contains(key) || text.contains(encoded), "\(url.path) holds the key", file: file, line: line)
        }
    }

    func testGuardianSendsTheKeyAsItsQueryParameterAndListsSections() throws {
        server.route("/search", .json(FixturePaths.data("guardian/search.json")))
        let run = try fetch("guardian", env: ["GUARDIAN_API_KEY": Self.guardianKey], config: "section = world\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request.queryItems, .pairs([("section", "world"), ("order-by", "newest"), ("show-fields", "thumbnail,trailText"),
                                                   ("page-size", "10"), ("api-key", Self.guardianKey)]))
        XCTAssertNil(request.header("api-key"))
        let listed = try listJSON()
        XCTAssertEqual(listed.map(\.title), ["Dutch dikes hold as North Sea surge hits record height",
                                             "Arsenal v Chelsea: Premier League – live", "EU opens first AI Act enforcement case"])
        XCTAssertEqual(listed.map(\.published_at), ["2026-11-29T22:41:07.000Z", "2026-11-29T21:55:12.000Z", "2026-11-29T20:15:00.000Z"])
        XCTAssertEqual(listed[0].image, "https://media.guim.co.uk/3f2a1b/0_0_5000_3000/500.jpg")
        XCTAssertEqual(listed[0].source, "World news")
        XCTAssertNil(listed[0].comments_url)
        try assertKeyNowhere(Self.guardianKey, run)
    }

    func testGuardianCapturedSearchWithoutFields() throws {
        // Given a search the Guardian really answered (2014: no `fields`, no `type`, http links)
        server.route("/search", .json(FixturePaths.data("guardian/captured-search.json")))

        // When headlines fetches it
        let run = try fetch("guardian", env: ["GUARDIAN_API_KEY": Self.guardianKey])
        XCTAssertEqual(run.status, 0, run.stderr)

        // Then all ten are read, newest first, each named by its section, without an image
        let listed = try listJSON()
        XCTAssertEqual(listed.count, 10)
        XCTAssertEqual(Array(listed.map(\.title).prefix(3)), ["County cricket – live!", "Thorntons reports 60% profits rise despite store closures",
                                                              "My name is Richard and I am an addict – an Apple addict | Richard Seymour"])
        XCTAssertEqual(listed.last?.title, "The Fiver | A rather baffling queue of masochists and self-sacrificers")
        XCTAssertEqual(Array(listed.map(\.published_at).prefix(2)), ["2014-09-10T16:10:21.000Z", "2014-09-10T16:07:16.000Z"])
        XCTAssertEqual(Array(listed.map(\.source).prefix(3)), ["Sport", "Business", "Comment is free"])
        XCTAssertEqual(listed[1].url, "http://www.theguardian.com/business/2014/sep/10/thorntons-60-per-cent-profits-rise-despite-closures")
        XCTAssertTrue(listed.allSatisfy { $0.image == nil && $0.comments_url == nil })
        try assertKeyNowhere(Self.guardianKey, run)
    }

    func testGuardianRejectedKeyAdvisesTheVariable() throws {
        server.route("/search", .json(FixturePaths.data("guardian/error-401.json"), status: 401))
        let run = try fetch("guardian", env: ["GUARDIAN_API_KEY": Self.guardianKey])
        XCTAssertTrue(run.stderr.contains("The Guardian rejected the API key (Unauthorized): check GUARDIAN_API_KEY or api-key-file."), run.stderr)
        try assertKeyNowhere(Self.guardianKey, run)
    }

    func testGuardianMessageEchoingTheKeyIsRedacted() throws {
        server.route("/search", .json(FixturePaths.data("guardian/error-400.json"), status: 400))
        let run = try fetch("guardian", env: ["GUARDIAN_API_KEY": Self.guardianKey])
        XCTAssertTrue(run.stderr.contains("[redacted]"), run.stderr)
        try assertKeyNowhere(Self.guardianKey, run)
    }

    func testGuardianWithoutAKeySaysWhichVariable() throws {
        let run = try fetch("guardian", env: [:])
        XCTAssertTrue(run.stderr.contains("The Guardian needs an API key: set GUARDIAN_API_KEY"), run.stderr)
        XCTAssertEqual(server.requests.count, 0)
    }

    func testNYTTopStoriesOfASectionWithMultimedia() throws {
        server.route("/svc/topstories/v2/home.json", .json(FixturePaths.data("nyt/topstories-home.json")))
        let run = try fetch("nyt", env: ["NYT_API_KEY": Self.nytKey])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(server.requests.first?.queryItems, .pairs([("api-key", Self.nytKey)]))
        let listed = try listJSON()
        XCTAssertEqual(listed.map(\.title), ["The Chip Shortage Is Back, and This Time It’s Memory",
                                             "Talks Resume in Geneva as Winter Cease-Fire Nears"], "the empty promo is dropped")
        XCTAssertEqual(listed.map(\.published_at), ["2026-11-29T14:00:00.000Z", "2026-11-29T10:00:11.000Z"])
        XCTAssertEqual(listed[1].image, "https://static01.nyt.com/images/2026/11/29/multimedia/29geneva-threeByTwoSmallAt2X.jpg")
        XCTAssertNil(listed[0].image)
        try assertKeyNowhere(Self.nytKey, run)
    }

    func testNYTCapturedTopStoriesWithOffsetDates() throws {
        // Given Top Stories as it really answered: -04:00 dates, three formats per item, an Interactive
        server.route("/svc/topstories/v2/home.json", .json(FixturePaths.data("nyt/captured-topstories-home.json")))

        // When headlines fetches them
        let run = try fetch("nyt", env: ["NYT_API_KEY": Self.nytKey])
        XCTAssertEqual(run.status, 0, run.stderr)

        // Then each keeps its link, its date in UTC and the threeByTwoSmallAt2X image, newest first
        let listed = try listJSON()
        XCTAssertEqual(listed.map(\.title), ["In Washington, Putin’s Nuclear Threats Stir Growing Alarm",
                                             "Panic, Bribes, Ditched Cars and a Dash on Foot: Portraits of Flight From Russia",
                                             "The Weekender", "Mini to Maestro, Part 2: Intermediate Solving"])
        XCTAssertEqual(listed.map(\.published_at), ["2022-10-01T16:30:21.000Z", "2022-10-01T04:01:13.000Z",
                                                    "2022-09-30T13:59:36.000Z", "2022-09-19T13:00:07.000Z"])
        XCTAssertEqual(listed[2].url, "https://www.nytimes.com/interactive/2022/09/30/briefing/the-weekender.html")
        XCTAssertEqual(listed[0].image, "https://static01.nyt.com/images/2022/10/01/world/01UkraineNuclear01b/01UkraineNuclear01b-threeByTwoSmallAt2X.jpg")
        XCTAssertEqual(listed.map(\.source), Array(repeating: "The New York Times", count: 4))
        try assertKeyNowhere(Self.nytKey, run)
    }

    func testNYTQuotaFaultIsARateLimitWithTheKeyRedacted() throws {
        server.route("/svc/topstories/v2/world.json", .json(FixturePaths.data("nyt/error-429-quota.json"), status: 429))
        let run = try fetch("nyt", env: ["NYT_API_KEY": Self.nytKey], config: "section = world\n")
        XCTAssertTrue(run.stderr.contains("The New York Times is rate-limiting requests (policies.ratelimit.QuotaViolation"), run.stderr)
        try assertKeyNowhere(Self.nytKey, run)
    }

    func testNYTInvalidKeyFault() throws {
        server.route("/svc/topstories/v2/home.json", .json(FixturePaths.data("nyt/error-401-invalid-key.json"), status: 401))
        let run = try fetch("nyt", env: ["NYT_API_KEY": Self.nytKey])
        XCTAssertTrue(run.stderr.contains("The New York Times rejected the API key (oauth.v2.InvalidApiKey: Invalid ApiKey): check NYT_API_KEY"), run.stderr)
    }

    func testGNewsTopHeadlinesWithCategoryAndTheKeyEncoded() throws {
        server.route("/api/v4/top-headlines", .json(FixturePaths.data("gnews/top-headlines.json")))
        let run = try fetch("gnews", env: ["GNEWS_API_KEY": Self.gnewsKey], config: "category = business\ncountry = us\n")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(server.requests.first?.queryItems, .pairs([("category", "business"), ("lang", "en"), ("country", "us"),
                                                                 ("max", "10"), ("apikey", Self.gnewsKey)]))
        let listed = try listJSON()
        XCTAssertEqual(listed.map(\.title), ["Storm Bert leaves thousands without power", "Central banks signal a pause as inflation cools"])
        XCTAssertEqual(listed.map(\.source), ["BBC News", "Reuters"])
        XCTAssertEqual(listed[1].image, "https://www.reuters.com/resizer/v2/central-banks.jpg?auth=ab12&width=1200")
        try assertKeyNowhere(Self.gnewsKey, run)
    }

    func testGNewsCapturedTopHeadlines() throws {
        // Given top headlines as GNews really answered them (2024-03-17, country in): ten articles,
        // `... [N chars]` contents, three DAWN items at one second, one story under two URLs
        server.route("/api/v4/top-headlines", .json(FixturePaths.data("gnews/captured-top-headlines.json")))

        // When headlines fetches them
        let run = try fetch("gnews", env: ["GNEWS_API_KEY": Self.gnewsKey])
        XCTAssertEqual(run.status, 0, run.stderr)

        // Then each keeps its title, link, source, image and its own date, newest first
        let listed = try listJSON()
        XCTAssertEqual(listed.count, 10)
        XCTAssertEqual(Array(listed.map(\.title).prefix(4)), ["Measles outbreak claims six lives in K-P", "Murad urges sticking to Constitution on NFC",
                                                              "Gas becomes a rarity in Ramazan", "Sidhu Moosewala’s parents welcome baby boy; See pic here"])
        XCTAssertEqual(Array(listed.map(\.published_at).prefix(2)), ["2024-03-17T05:51:50.000Z", "2024-03-17T05:20:50.000Z"])
        XCTAssertEqual(listed.last?.published_at, "2024-03-17T01:45:25.000Z")
        XCTAssertEqual(listed[0].url, "https://tribune.com.pk/story/2459580/measles-outbreak-claims-six-lives-in-k-p")
        XCTAssertEqual(Array(listed.map(\.source).prefix(5)), ["The Express Tribune", "The Express Tribune", "The Express Tribune", "Mint", "Business Insider"])
        XCTAssertEqual(listed[4].image, "https://i.insider.com/65f63682857f90b715233844?width=1200&format=jpeg")
        XCTAssertTrue(listed.allSatisfy { $0.comments_url == nil })
        try assertKeyNowhere(Self.gnewsKey, run)
    }

    func testGNewsSpentQuotaWaitsUntilMidnightUTC() throws {
        server.route("/api/v4/top-headlines", .json(FixturePaths.data("gnews/error-403.json"), status: 403))
        let run = try fetch("gnews", env: ["GNEWS_API_KEY": Self.gnewsKey])
        XCTAssertTrue(run.stderr.contains("GNews is rate-limiting requests (You have reached your request limit for today"), run.stderr)
        // The CLI runs with TZ=UTC: local time is UTC, written with its offset.
        XCTAssertTrue(run.stderr.contains(" 00:00:00 +0000 or lower [refresh] daily-budget."), run.stderr)
    }

    func testGNewsBadParameterNamesIt() throws {
        server.route("/api/v4/top-headlines", .json(FixturePaths.data("gnews/error-400-param.json"), status: 400))
        let run = try fetch("gnews", env: ["GNEWS_API_KEY": Self.gnewsKey], config: "category = wrong\n")
        XCTAssertTrue(run.stderr.contains("GNews refused the request (HTTP 400) (category: The selected category is invalid.): check the [source] settings."), run.stderr)
    }

    func testAnEchoedPercentEncodedKeyIsRedactedToo() throws {
        let echo = #"{"errors":["Invalid request /api/v4/top-headlines?max=10&apikey=SECRET-gnews%2Babc"]}"#
        server.route("/api/v4/top-headlines", .json(Data(echo.utf8), status: 400))
        let run = try fetch("gnews", env: ["GNEWS_API_KEY": Self.gnewsKey])
        XCTAssertTrue(run.stderr.contains("apikey=[redacted]"), run.stderr)
        try assertKeyNowhere(Self.gnewsKey, run)
    }

    func testKeyInTheQueryIsNotSentOverPlainHTTPToAnotherHost() throws {
        try cli.writeConfig("[source]\nprovider = gnews\nbase-url = http://news.invalid\n")
        let run = try cli.run(["fetch"], environment: ["GNEWS_API_KEY": Self.gnewsKey])
        XCTAssertTrue(run.stderr.contains("Refusing to send the GNews API key over plain http to news.invalid"), run.stderr)
        try assertKeyNowhere(Self.gnewsKey, run)
    }
}
