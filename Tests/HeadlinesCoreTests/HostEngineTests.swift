import Foundation
import XCTest
import HeadlinesCore

/// The engine's contract with its driver, event by event, with no provider at all.
final class HostEngineTests: XCTestCase {
    private let clock = ManualClock(monday)
    private let configuration = HostConfiguration(providerName: "Test", sourceIdentity: "s", interval: 1800, dailyBudget: 48,
                                                  layout: { Timeline(entries: [$0], policy: .after($1)) })

    private func result(at date: Date) -> TimelineResult {
        let entry = TimelineEntry(date: date, content: WidgetContent(headlines: headlines(2), freshness: .fresh, fetchedAt: date))
        return TimelineResult(timeline: Timeline(entries: [entry], policy: .after(date.addingTimeInterval(1800))),
                              failure: nil, fetched: headlines(2))
    }

    private func kinds(_ actions: [HostAction]) -> [String] {
        actions.compactMap {
            switch $0 {
            case .saveLedger: return "save"
            case .startReload: return "reload"
            case .publish: return "publish"
            case .notify: return "notify"
            case .armTimer: return "arm"
            default: return nil
            }
        }
    }

    /// The ledger is saved with the attempt in it before the fetch child starts, so a host that
    /// dies at any moment never spends a request its ledger on disk does not count; one timer, and
    /// the timeline published once.
    func testTheAttemptIsSavedBeforeTheReloadStartsOneTimerArmed() {
        var engine = HostEngine()
        let actions = engine.handle(.started(HostStart(hostPID: 1, ledger: RefreshLedger(), cache: nil), configuration), at: clock.time)
        XCTAssertEqual(kinds(actions), ["arm", "save", "reload", "publish"])
        let saved = actions.compactMap { if case let .saveLedger(ledger) = $0 { ledger } else { nil } }
        XCTAssertEqual(saved.first?.attempts, [monday], "the saved ledger lacks the attempt")
        XCTAssertEqual(engine.ledger.attempts, [monday])
        XCTAssertEqual(engine.ledger.records.first?.monotonic, clock.time.monotonic)
    }

    /// What a user waits for comes first: the bar line of the reload's answer before the
    /// ledger and the published timeline are written (notifications follow them all).
    func testAfterAReloadTheBarLineComesBeforeTheLedgerAndTheTimelineFile() {
        var engine = HostEngine()
        _ = engine.handle(.started(HostStart(hostPID: 1, ledger: RefreshLedger(), cache: nil), configuration), at: clock.time)
        clock.advance(by: 1)
        let actions = engine.handle(.reloadFinished(result(at: clock.time.wall), requestsSent: 1), at: clock.time)
        let order = actions.compactMap { action -> String? in
            switch action {
            case .showEntry: return "show"
            case .saveLedger: return "save"
            case .publish: return "publish"
            default: return nil
            }
        }
        XCTAssertEqual(order, ["show", "save", "publish"])
    }

    /// A reload that succeeds as the last one did changes nothing in the ledger after its start
    /// saved the attempt: its answer writes no second copy (a save costs two fsyncs). A failure
    /// after it does change the ledger, and is saved.
    func testAnAnswerThatLeavesTheLedgerAsSavedIsNotSavedAgain() {
        var engine = HostEngine()
        _ = engine.handle(.started(HostStart(hostPID: 1, ledger: RefreshLedger(), cache: nil), configuration), at: clock.time)
        clock.advance(by: 1)
        XCTAssertEqual(kinds(engine.handle(.reloadFinished(result(at: clock.time.wall), requestsSent: 1), at: clock.time))
                        .filter { $0 == "save" }.count, 1, "the first success records the outcome and the source")
        clock.advance(by: 60)
        XCTAssertEqual(kinds(engine.handle(.refreshAsked(reason: "refresh requested"), at: clock.time)).filter { $0 != "arm" },
                       ["save", "reload"])
        clock.advance(by: 1)
        let second = kinds(engine.handle(.reloadFinished(result(at: clock.time.wall), requestsSent: 1), at: clock.time))
        XCTAssertFalse(second.contains("save"), "the answer wrote the ledger its start had saved: \(second)")
        clock.advance(by: 60)
        _ = engine.handle(.refreshAsked(reason: "refresh requested"), at: clock.time)
        clock.advance(by: 1)
        let failed = TimelineResult(timeline: Timeline(entries: [], policy: .after(clock.time.wall.addingTimeInterval(600))),
                                    failure: RefreshFailure(error: .unreachable(detail: "x"), message: "The reload failed."), fetched: nil)
        XCTAssertTrue(kinds(engine.handle(.reloadFinished(failed, requestsSent: 1), at: clock.time)).contains("save"),
                      "a failure after a success was not saved")
        XCTAssertEqual(engine.ledger.consecutiveFailures, 1)
    }

    /// The driver lays the answer out from a clock reading of its own, taken after the ledger's
    /// save (later than the engine's start): the answer's first entry still shows now, in the
    /// answer's own event, and no timer is armed to show it again a moment later.
    func testAnAnswerLaidOutAfterTheReloadsStartShowsNowWithNoTimerForIt() {
        for late in [0.003, 0.000_001] {
            var engine = HostEngine()
            let start = clock.time.wall
            _ = engine.handle(.started(HostStart(hostPID: 1, ledger: RefreshLedger(), cache: nil), configuration), at: clock.time)
            clock.advance(by: 0.25)
            let answered = engine.handle(.reloadFinished(result(at: start.addingTimeInterval(late)), requestsSent: 1), at: clock.time)
            XCTAssertEqual(engine.timeline.entries.first?.date, clock.time.wall, "laid out \(late) s late")
            XCTAssertTrue(answered.contains { if case .showEntry = $0 { true } else { false } })
            let armed = answered.compactMap { if case let .armTimer(_, seconds) = $0 { seconds } else { nil } }
            XCTAssertEqual(armed.count, 1)
            XCTAssertGreaterThan(armed.first ?? 0, 1, "laid out \(late) s late: a timer was armed to show the answer again")
        }
    }

    func testARefreshDuringAReloadIsQueuedAndFollowsIt() {
        var engine = HostEngine()
        _ = engine.handle(.started(HostStart(hostPID: 1, ledger: RefreshLedger(), cache: nil), configuration), at: clock.time)
        clock.advance(by: 1)
        let during = engine.handle(.refreshAsked(reason: "refresh requested"), at: clock.time)
        XCTAssertFalse(kinds(during).contains("reload"), "a second reload started while one runs")
        clock.advance(by: 1)
        let after = engine.handle(.reloadFinished(result(at: monday), requestsSent: 1), at: clock.time)
        XCTAssertEqual(kinds(after).filter { $0 == "reload" }.count, 1, "the queued refresh did not follow")
        XCTAssertEqual(engine.ledger.attempts.count, 2)
    }

    func testTheEngineNeverSleepsLongerThanTheWallClockCheck() {
        var engine = HostEngine()
        var cache = CachedHeadlines(provider: "Test", fetchedAt: monday, headlines: headlines(2))
        cache.fetchedAt = monday
        let actions = engine.handle(.started(HostStart(hostPID: 1, ledger: RefreshLedger(), cache: cache), configuration), at: clock.time)
        let armed = actions.compactMap { if case let .armTimer(_, seconds) = $0 { seconds } else { nil } }
        XCTAssertEqual(armed, [60])
    }

    func testEventsBeforeStartDoNothing() {
        var engine = HostEngine()
        XCTAssertTrue(engine.handle(.timerFired, at: clock.time).isEmpty)
        XCTAssertTrue(engine.handle(.refreshAsked(reason: "x"), at: clock.time).isEmpty)
    }
}
