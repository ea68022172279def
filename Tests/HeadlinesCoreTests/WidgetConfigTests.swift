import Foundation
import TestSupport
import XCTest
@testable import HeadlinesCore

/// `[widget NAME]` groups: each widget's keys over the top-level groups, one budget
/// shared per keyed provider, one fetch for widgets on the same source.
final class WidgetConfigTests: XCTestCase {
    let file = "/home/u/.config/headlines/headlines.conf"

    private func parse(_ groups: [String: [String: String]]) throws -> Config {
        try Config.parse(groups: groups, file: file)
    }

    func testAWidgetTakesItsOwnKeysAndTheRestFromTheTopLevelGroups() throws {
        let config = try parse([
            "source": ["provider": "feeds", "feeds": "https://a.example/world.rss"],
            "bar": ["rotate": "10s", "max-length": "50"],
            "notify": ["max-per-refresh": "2"],
            "widget tech": ["feeds": "https://b.example/tech.rss", "max-length": "30", "enabled": "false"],
            "widget world": [:],
        ])
        XCTAssertEqual(config.widgetNames, ["tech", "world"])
        let tech = try config.widget(named: "tech", file: file)
        XCTAssertEqual(tech.feeds.map(\.absoluteString), ["https://b.example/tech.rss"])
        XCTAssertEqual(tech.maxLength, 30)
        XCTAssertEqual(tech.rotate, 10, "rotate comes from [bar]")
        XCTAssertFalse(tech.notifyEnabled)
        XCTAssertEqual(tech.maxPerRefresh, 2, "max-per-refresh comes from [notify]")
        let world = try config.widget(named: "world", file: file)
        XCTAssertEqual(world.feeds.map(\.absoluteString), ["https://a.example/world.rss"])
        XCTAssertEqual(world.maxLength, 50)
        XCTAssertTrue(world.notifyEnabled)
    }

    func testAConfigWithoutWidgetGroupsIsTheOneWidgetCaseUnchanged() throws {
        let groups = ["source": ["provider": "feeds"], "bar": ["rotate": "5s"]]
        let config = try parse(groups)
        XCTAssertEqual(config.widgetNames, [])
        var expected = Config()
        expected.provider = .feeds
        expected.providerIsExplicit = true
        expected.rotate = 5
        XCTAssertEqual(config, expected)
    }

    func testABadKeyInAWidgetNamesTheWidgetAndWhatItTakes() {
        let unknown = thrownError { () throws(ConfigError) in try Config.parse(groups: ["widget tech": ["interval": "5m"]], file: file) }
        XCTAssertTrue(unknown?.message.contains("unknown key 'interval' in [widget tech]") ?? false, unknown?.message ?? "")
        let invalid = thrownError { () throws(ConfigError) in try Config.parse(groups: ["widget tech": ["max-length": "3"]], file: file) }
        XCTAssertTrue(invalid?.message.contains("[widget tech] max-length = '3' is not valid") ?? false, invalid?.message ?? "")
        let name = thrownError { () throws(ConfigError) in try Config.parse(groups: ["widget ../x": [:]], file: file) }
        XCTAssertTrue(name?.message.contains("not a valid widget name") ?? false, name?.message ?? "")
    }

    func testAnUnknownWidgetSaysWhichOnesThereAre() throws {
        let config = try parse(["widget tech": [:], "widget world": [:]])
        let error = thrownError { () throws(ConfigError) in try config.widget(named: "sport", file: file) }
        XCTAssertEqual(error?.message, "\(file) has no [widget sport]; its widgets are tech, world: check --widget or the i3blocks instance.")
    }

    func testWidgetOptionIsParsedAndPassedOn() throws {
        let args = try Arguments.parse(["waybar", "--widget", "tech"])
        XCTAssertEqual(args.widget, "tech")
        XCTAssertEqual(args.passThrough, ["--widget", "tech"])
        XCTAssertThrowsError(try Arguments.parse(["list", "--widget=../../etc"]))
    }

    // MARK: - The shared budget

    private func widget(_ provider: Config.Provider, feeds: String = "https://a.example/a.rss", query: String = "",
                        budget: Int = 48, interval: TimeInterval = 1800) -> Config {
        var c = Config()
        c.provider = provider
        c.providerIsExplicit = true
        c.feeds = [URL(string: feeds)!]
        c.query = query
        c.dailyBudget = budget
        c.interval = interval
        return c
    }

    func testWidgetsOnAKeyedProviderSplitItsBudgetAndReloadNoMoreOftenThanTheirShare() {
        let plan = WidgetPlan(widgets: [("a", widget(.apitube, query: "world")), ("b", widget(.apitube, query: "tech")),
                                        ("c", widget(.apitube, query: "sport")), ("d", widget(.feeds))])
        XCTAssertEqual(plan.shares.map(\.dailyBudget), [16, 16, 16, 48], "APITube's 48 split three ways; the feed keeps its own")
        XCTAssertEqual(plan.shares.map(\.interval), [5400, 5400, 5400, 1800])
        XCTAssertEqual(plan.notes.count, 1)
        XCTAssertTrue(plan.notes[0].hasPrefix("APITube's daily budget of 48 is shared by 3 widgets (a, b, c): 16 requests each"), plan.notes[0])
    }

    func testASimulatedDayOfEveryWidgetReloadingOnItsScheduleStaysWithinTheProviderBudget() {
        // Given five APITube widgets asking for a reload every 10 minutes on a budget of 100
        let widgets = (0..<5).map { (Optional("w\($0)"), widget(.apitube, query: "q\($0)", budget: 100, interval: 600)) }
        let plan = WidgetPlan(widgets: widgets)
        // When each reloads on its interval for 24 hours, within its own budget (RefreshBudget)
        var sent = 0
        for share in plan.shares {
            let budget = RefreshBudget(dailyLimit: share.dailyBudget)
            var ledger = RefreshLedger()
            var at = Date(timeIntervalSince1970: 1_800_000_000)
            let end = at.addingTimeInterval(86400)
            while at < end {
                if budget.remaining(ledger, now: at) > 0 { ledger.records.append(.init(at: at)); sent += 1 }
                at = at.addingTimeInterval(share.interval)
            }
        }
        // Then the day's requests fit the one APITube budget
        XCTAssertLessThanOrEqual(sent, 100)
        XCTAssertGreaterThanOrEqual(sent, 95, "the budget is spread, not wasted")
    }

    func testBuiltInKeyedProvidersShareTheirKeysBudgetAndSubredditsAreSourcesOfTheirOwn() throws {
        let config = try parse([
            "source": ["provider": "guardian"],
            "widget world": ["section": "world"], "widget tech": ["section": "technology"],
            "widget linux": ["provider": "reddit", "subreddits": "linux"], "widget rust": ["provider": "reddit", "subreddits": "rust"],
        ])
        let widgets = try config.widgetNames.map { (Optional($0), try config.widget(named: $0, file: file)) }
        let plan = WidgetPlan(widgets: widgets)
        XCTAssertEqual(plan.shares.map(\.widget), ["linux", "rust", "tech", "world"])
        XCTAssertEqual(plan.shares.map(\.dailyBudget), [48, 48, 24, 24], "The Guardian's key is shared; Reddit has none")
        XCTAssertEqual(plan.shares.map(\.mirrors), [false, false, false, false], "other subreddits and sections are other sources")
    }

    func testASortTheProviderLacksOrTwoKeyPlacementsAreOneSentence() throws {
        XCTAssertThrowsError(try parse(["source": ["provider": "reddit", "sort": "newest"]])) { error in
            XCTAssertEqual((error as? ConfigError)?.message, "\(file): [source] sort = newest is not an order Reddit has; use hot, new, top.")
        }
        XCTAssertThrowsError(try parse(["source": ["provider": "reddit"], "widget l": ["provider": "lobsters", "sort": "top"]])) { error in
            XCTAssertEqual((error as? ConfigError)?.message, "\(file): [widget l] sort = top is not an order Lobsters has; use hottest, newest.")
        }
        XCTAssertEqual(try parse(["source": ["provider": "lobsters", "sort": "newest"]]).sort, "newest")
        XCTAssertThrowsError(try parse(["source": ["provider": "json", "url": "https://x.example/a", "api-key-header": "X-Key", "api-key-param": "key"]])) { error in
            XCTAssertEqual((error as? ConfigError)?.message, "\(file): [source] sets both api-key-header and api-key-param; keep the one the API documents.")
        }
    }

    func testWidgetsOnTheSameSourceShareOneFetch() {
        let plan = WidgetPlan(widgets: [("a", widget(.feeds, feeds: "https://x.example/f.rss")),
                                        ("b", widget(.feeds, feeds: "https://y.example/g.rss")),
                                        ("c", widget(.feeds, feeds: "https://x.example/f.rss"))])
        XCTAssertEqual(plan.shares.map(\.source), ["a", "b", "a"])
        XCTAssertEqual(plan.shares.map(\.mirrors), [false, false, true])
        // Two APITube widgets on the same query are one source: the budget is not split for them.
        let same = WidgetPlan(widgets: [("a", widget(.apitube, query: "q")), ("b", widget(.apitube, query: "q"))])
        XCTAssertEqual(same.shares.map(\.dailyBudget), [48, 48])
        XCTAssertEqual(same.shares.map(\.source), ["a", "a"])
    }

    func testWidgetPathsKeepTheirFilesApartAndShareTheSeenSet() {
        let base = XDGPaths(environment: ["HOME": "/h", "XDG_RUNTIME_DIR": "/run/user/1000"])
        let tech = base.forWidget("tech")
        let mirror = base.forWidget("same", source: "tech")
        XCTAssertEqual(tech.barLinesDir, "/run/user/1000/headlines-widget-tech/bar")
        XCTAssertEqual(tech.hostLockFile, "/run/user/1000/headlines-widget-tech/host.lock")
        XCTAssertEqual(tech.cacheFile, "/h/.cache/headlines/widgets/tech/headlines.json")
        XCTAssertEqual(tech.ledgerFile, "/h/.local/state/headlines/widgets/tech/ledger.json")
        XCTAssertEqual(tech.seenFile, base.seenFile, "a headline is notified once, whichever widget has it")
        XCTAssertEqual(mirror.cacheFile, tech.cacheFile)
        XCTAssertEqual(mirror.ledgerFile, "/h/.local/state/headlines/widgets/same/ledger.json")
        XCTAssertEqual(base.forWidget(nil), base, "no widget: the paths of every earlier version")
    }
}
