import Foundation
import XCTest
import HeadlinesCore

/// The host and the feeds' own schedules: a scheduled reload waits until the first feed is due
/// (the last report's nextDue, kept in the ledger across restarts), starting no child and
/// writing nothing before it; a reload someone asks for fetches every feed.
final class FeedsDueEngineTests: XCTestCase {
    private let clock = ManualClock(monday)
    private let configuration = HostConfiguration(providerName: "Feeds", sourceIdentity: "feeds-a", interval: 300,
                                                  dailyBudget: 288, layout: { Timeline(entries: [$0], policy: .after($1)) })

    /// A successful answer at now that asks for the next reload an interval later, from a child
    /// that said the first feed is next due at `nextDue`.
    private func answer(nextDue: Date?) -> TimelineResult {
        let now = clock.time.wall
        let entry = TimelineEntry(date: now, content: WidgetContent(headlines: headlines(2), freshness: .fresh, fetchedAt: now))
        return TimelineResult(timeline: Timeline(entries: [entry], policy: .after(now.addingTimeInterval(300))),
                              failure: nil, fetched: headlines(2), nextDue: nextDue)
    }

    /// The reloads among `actions`, each as whether it fetches every feed.
    private func reloads(_ actions: [HostAction]) -> [Bool] {
        actions.compactMap { if case let .startReload(_, allFeeds) = $0 { allFeeds } else { nil } }
    }

    private func saves(_ actions: [HostAction]) -> Int {
        actions.filter { if case .saveLedger = $0 { true } else { false } }.count
    }

    /// An engine started on an empty cache whose first reload answered `nextDue`.
    private func reloaded(nextDue: Date?, ledger: RefreshLedger = RefreshLedger()) -> HostEngine {
        var engine = HostEngine()
        let first = engine.handle(.started(HostStart(hostPID: 1, ledger: ledger, cache: nil), configuration), at: clock.time)
        XCTAssertEqual(reloads(first), [false], "the first reload of an empty cache fetches the feeds that are due")
        clock.advance(by: 1)
        _ = engine.handle(.reloadFinished(answer(nextDue: nextDue), requestsSent: 1), at: clock.time)
        return engine
    }

    /// Every timer the engine arms fires, up to `end`: what they did.
    private func run(_ engine: inout HostEngine, until end: Date) -> [HostAction] {
        var actions: [HostAction] = []
        while let at = engine.timerAt, at <= end, !engine.reloading {
            clock.advance(by: at.timeIntervalSince(clock.now))
            actions += engine.handle(.timerFired, at: clock.time)
        }
        return actions
    }

    func testAScheduledReloadBeforeTheFirstFeedIsDueStartsNoChildAndWritesNothing() {
        let due = monday.addingTimeInterval(hour)
        var engine = reloaded(nextDue: due)
        XCTAssertEqual(engine.ledger.nextDue, due, "the ledger does not keep the report's nextDue")
        XCTAssertEqual(engine.nextReload(clock.now), due, "the next reload is not the later of the schedule and nextDue")

        // Twelve intervals of 5 minutes pass before the first feed is due.
        let before = run(&engine, until: due.addingTimeInterval(-1))
        XCTAssertEqual(reloads(before), [], "a scheduled reload started before any feed was due")
        XCTAssertEqual(saves(before), 0, "the ledger was written while nothing was due")

        let at = run(&engine, until: due.addingTimeInterval(1))
        XCTAssertEqual(reloads(at), [false], "when the first feed is due, one reload of the feeds that are due")
        XCTAssertEqual(engine.ledger.attempts.last, due)
    }

    func testARefreshSomeoneAsksForFetchesEveryFeedWhateverTheyAsked() {
        var engine = reloaded(nextDue: monday.addingTimeInterval(hour))
        clock.advance(by: 600)
        let asked = engine.handle(.refreshAsked(reason: "Reload called on the bus"), at: clock.time)
        XCTAssertEqual(reloads(asked), [true])

        // Asked again while that reload runs: the one that follows it fetches every feed too.
        clock.advance(by: 1)
        XCTAssertEqual(reloads(engine.handle(.refreshAsked(reason: "refresh requested"), at: clock.time)), [])
        clock.advance(by: 1)
        let after = engine.handle(.reloadFinished(answer(nextDue: monday.addingTimeInterval(hour)), requestsSent: 1), at: clock.time)
        XCTAssertEqual(reloads(after), [true], "the queued refresh did not fetch every feed")
    }

    /// A refresh that a server's Retry-After defers still fetches every feed when it goes.
    func testARefreshDeferredByRetryAfterFetchesEveryFeedWhenItGoes() {
        var engine = reloaded(nextDue: monday.addingTimeInterval(2 * hour))
        _ = engine.handle(.refreshAsked(reason: "refresh requested"), at: clock.time)
        clock.advance(by: 1)
        let refused = TimelineResult(timeline: Timeline(entries: [], policy: .after(clock.now.addingTimeInterval(300))),
                                     failure: RefreshFailure(error: .rateLimited(retryAfter: clock.now.addingTimeInterval(600), code: nil, message: nil),
                                                             message: "The server asked to wait."),
                                     fetched: nil, nextDue: monday.addingTimeInterval(2 * hour))
        _ = engine.handle(.reloadFinished(refused, requestsSent: 1), at: clock.time)
        clock.advance(by: 60)
        XCTAssertEqual(reloads(engine.handle(.refreshAsked(reason: "refresh requested"), at: clock.time)), [])
        XCTAssertEqual(engine.deferred?.by, .server)
        let went = run(&engine, until: clock.now.addingTimeInterval(600))
        XCTAssertEqual(reloads(went), [true])
    }

    func testARestartedHostWaitsForTheFeedsItsLedgerSaysAreNotDue() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let due = monday.addingTimeInterval(hour)
        let first = reloaded(nextDue: due)
        try LedgerStore(path: dir.ledgerFile).store(first.ledger)
        let cache = CachedHeadlines(provider: "Feeds", fetchedAt: clock.now, headlines: headlines(2))

        // Ten minutes later: stale by the 5-minute schedule, but no feed is due for 50 minutes.
        clock.advance(by: 600)
        let ledger = LedgerStore(path: dir.ledgerFile).load(now: clock.now, warn: { XCTFail($0) })
        var restarted = HostEngine()
        let start = restarted.handle(.started(HostStart(hostPID: 2, ledger: ledger, cache: cache), configuration), at: clock.time)
        XCTAssertEqual(reloads(start), [], "the restarted host reloaded though no feed was due")
        XCTAssertEqual(restarted.nextReload(clock.now), due)

        // Another source's feeds owe nothing to these due dates: it reloads at once.
        var other = configuration
        other.sourceIdentity = "feeds-b"
        var switched = HostEngine()
        let switchedStart = switched.handle(.started(HostStart(hostPID: 3, ledger: ledger, cache: cache), other), at: clock.time)
        XCTAssertEqual(reloads(switchedStart).count, 1, "a host on another source waited for the old source's feeds")
    }

    /// A ledger from before per-feed schedules loads, with no due date; a due date years away (a
    /// hostile header or an edited file) holds the reloads back 24 hours at most.
    func testOldLedgersLoadAndADueDateIsCappedAtADay() throws {
        let line = #"{"at":["2025-01-06T00:00:00Z"],"consecutiveFailures":0,"lastOutcome":"success","source":"feeds-a"}"# + "\n"
        let old = try LedgerFile.decode(Data(line.utf8))
        XCTAssertEqual(old.attempts, [monday])
        XCTAssertNil(old.nextDue)

        var ledger = old
        ledger.nextDue = monday.addingTimeInterval(365 * day)
        var engine = HostEngine()
        clock.advance(by: 600)
        _ = engine.handle(.started(HostStart(hostPID: 1, ledger: ledger, cache: nil), configuration), at: clock.time)
        XCTAssertEqual(engine.nextReload(clock.now), clock.now.addingTimeInterval(day))
    }
}
