import Foundation
import XCTest
import HeadlinesCore

/// A failing source: exponential back-off, a server's Retry-After, and the budget counting it all.
final class BackoffTests: XCTestCase {
    private var dir = TempDir()
    override func setUp() { dir = TempDir() }
    override func tearDown() { dir.remove() }

    private let interval: TimeInterval = 30 * 60
    private let serverError = NewsError.serverError(status: 503, code: nil, message: nil)

    private func start(_ script: FetchScript, budget: Int = 48, clock: ManualClock) async -> EngineHarness {
        let provider = headlinesProvider(script, dir: dir, interval: interval, rotate: 0)
        return await EngineHarness.start(clock: clock, dir: dir, provider: provider, dailyBudget: budget, interval: interval)
    }

    private func gaps(_ dates: [Date]) -> [TimeInterval] {
        zip(dates.dropFirst(), dates).map { $0.timeIntervalSince($1) }
    }

    func testAFailingSourceBacksOffExponentiallyUpToTheIntervalThenResumesAfterASuccess() async {
        // Given a source that fails with a server error
        let clock = ManualClock(monday)
        let serverError = self.serverError
        let script = FetchScript { _, _ in .failure(serverError) }
        let host = await start(script, clock: clock)

        // When 3 hours pass
        await host.run(until: monday.addingTimeInterval(3 * hour))

        // Then the gaps double from a minute and stop at the interval
        XCTAssertEqual(gaps(script.calls), [60, 120, 240, 480, 960, 1800, 1800, 1800, 1800])
        XCTAssertEqual(host.ledger.consecutiveFailures, 10)

        // When the source succeeds once, then fails again, for 2 more hours
        let failing = script.calls.count
        script.answer { _, n in n == failing ? .success(headlines(2)) : .failure(serverError) }
        await host.run(until: monday.addingTimeInterval(5 * hour))

        // Then the interval follows the success, and the next failures back off from a minute again
        XCTAssertEqual(Array(gaps(script.calls).dropFirst(failing - 1)), [1800, 1800, 60, 120, 240, 480, 960, 1800])
        XCTAssertEqual(host.remaining, 48 - script.calls.count)
    }

    func testARateLimitsRetryAfterIsHonouredBeforeTheBackOff() async {
        // Given a source that answers 429 "come back in 900 s" once, then succeeds
        let clock = ManualClock(monday)
        let script = FetchScript { now, n in
            n == 0 ? .failure(.rateLimited(retryAfter: now.addingTimeInterval(900), code: nil, message: nil))
                   : .success(headlines(2))
        }
        let host = await start(script, clock: clock)
        XCTAssertEqual(host.ledger.retryNotBefore, monday.addingTimeInterval(900))

        // When an explicit reload is asked for in between, and an hour passes
        clock.advance(by: 300)
        await host.explicitReload()
        XCTAssertEqual(host.deferredExplicit, monday.addingTimeInterval(900))
        await host.run(until: monday.addingTimeInterval(900 + interval - 1))

        // Then no attempt before 900 s (the back-off alone said 60 s), then the normal interval
        XCTAssertEqual(offsets(script.calls, from: monday), [0, 900])
        XCTAssertEqual(host.ledger.retryNotBefore, nil)
        XCTAssertEqual(host.nextReload(now: clock.now), monday.addingTimeInterval(900 + interval))
    }

    func testEveryAttemptFailedOrNotCountsAgainstTheBudget() async {
        // Given a budget of 4 and a source that fails twice, then succeeds, then fails for good
        let clock = ManualClock(monday)
        let serverError = self.serverError
        let script = FetchScript { _, n in n == 2 ? .success(headlines(2)) : .failure(serverError) }
        let host = await start(script, budget: 4, clock: clock)

        // When a day passes
        await host.run(until: monday.addingTimeInterval(day - 1))

        // Then 4 attempts, failed or not, paced 6 h apart (30 min would spend 4 in 2 h), then
        // nothing until the first is 24 h old
        XCTAssertEqual(offsets(script.calls, from: monday), [0, 21600, 43200, 64800])
        XCTAssertEqual(host.remaining, 0)
        XCTAssertEqual(LedgerStore(path: dir.ledgerFile).load(now: clock.now, warn: { _ in }).attempts.count, 4)
        let next = host.nextReload(now: clock.now)
        XCTAssertEqual(next?.timeIntervalSince(monday) ?? 0, day, accuracy: 0.01)
    }

    func testARestartAfterAFailedReloadKeepsTheBackOff() async {
        // Given a source that fails, a host that has just tried it and a cache from long ago
        let clock = ManualClock(monday)
        try! HeadlineCache(path: dir.cacheFile).store(
            CachedHeadlines(provider: "Scripted", fetchedAt: monday.addingTimeInterval(-day), headlines: headlines(2)))
        let serverError = self.serverError
        let script = FetchScript { _, _ in .failure(serverError) }
        var host = await start(script, clock: clock)
        XCTAssertEqual(script.calls, [monday])

        // When the process is restarted every 10 s for 50 s (a crash loop)
        for _ in 0..<5 {
            await host.run(until: clock.now.addingTimeInterval(10))
            host = await start(script, clock: clock)
        }

        // Then no restart retried before the back-off's 60 s: restarts cost no budget
        XCTAssertEqual(offsets(script.calls, from: monday), [0], "restarts retried a failing source")
        await host.run(until: monday.addingTimeInterval(60))
        XCTAssertEqual(offsets(script.calls, from: monday), [0, 60])
    }

    func testACrashLoopAgainstAFailingSourceNeverSpendsMoreThanTheBudget() async {
        // Given a failing source and no cache
        let clock = ManualClock(monday)
        let serverError = self.serverError
        let script = FetchScript { _, _ in .failure(serverError) }
        var host = await start(script, budget: 48, clock: clock)

        // When the process restarts every 10 s for 2 hours, then runs for 2 days
        for _ in 0..<720 {
            await host.run(until: clock.now.addingTimeInterval(10))
            host = await start(script, budget: 48, clock: clock)
        }
        await host.run(until: monday.addingTimeInterval(2 * day))

        // Then no 24 hours ever held more than 48 attempts, and the ledger on disk knows them all
        // (it may also hold attempts older than 24 hours, which every reader drops as it loads)
        XCTAssertLessThanOrEqual(mostInAnyWindow(script.calls), 48)
        var onDisk = LedgerStore(path: dir.ledgerFile).load(now: clock.now, warn: { _ in }), inMemory = host.ledger
        onDisk.normalize(at: clock.time)
        inMemory.normalize(at: clock.time)
        XCTAssertEqual(onDisk.attempts, inMemory.attempts)
        XCTAssertEqual(inMemory.attempts.count, 48)
    }
}
