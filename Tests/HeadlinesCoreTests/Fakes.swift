import Foundation
import XCTest
import TestSupport
import HeadlinesCore
import HeadlinesSources

/// The clocks of a simulation: only the test moves them, and they survive a simulated restart.
/// `now` is the wall clock, `boot` CLOCK_BOOTTIME (counts through suspend, never steps), `glib`
/// CLOCK_MONOTONIC, which GLib timers run on (stops during a suspend).
final class ManualClock: @unchecked Sendable {
    var now: Date
    private(set) var boot: TimeInterval = 1000
    private(set) var glib: TimeInterval = 1000
    var bootID = "boot-1"
    init(_ now: Date) { self.now = now }
    /// Real time passing: every clock moves.
    func advance(by seconds: TimeInterval) { now = now.addingTimeInterval(seconds); boot += seconds; glib += seconds }
    /// A suspend: wall and boot time pass, GLib's monotonic clock does not.
    func sleep(for seconds: TimeInterval) { now = now.addingTimeInterval(seconds); boot += seconds }
    /// Someone sets the wall clock: only it moves.
    func stepWall(by seconds: TimeInterval) { now = now.addingTimeInterval(seconds) }
    /// A reboot: a new boot id and CLOCK_BOOTTIME from near zero.
    func reboot(after seconds: TimeInterval) { now = now.addingTimeInterval(seconds); boot = 5; glib = 5; bootID += "+" }
    var time: HostTime { HostTime(wall: now, monotonic: boot, boot: bootID) }
}

/// Monday 6 January 2025, 00:00:00 UTC: a calendar day starts exactly here.
let monday = Date(timeIntervalSince1970: 1_736_121_600)
let hour: TimeInterval = 3600
let day: TimeInterval = 24 * 3600

/// A seeded generator, so the "random" restart moments are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A private folder standing in for `$XDG_STATE_HOME/headlines` and the cache folder.
struct TempDir {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "timeline-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    var ledgerFile: String { path + "/state/ledger.json" }
    var cacheFile: String { path + "/cache/headlines.json" }
    var statusFile: String { path + "/state/status.json" }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

func headlines(_ count: Int, at date: Date = monday) -> [Headline] {
    (0..<count).map {
        Headline(id: "h\($0)", title: "Headline \($0)", url: URL(string: "https://example.com/\($0)")!,
                 source: "example.com", publishedAt: date)
    }
}

/// What the scripted source answers: call `n` (0-based) at `now`.
typealias FetchAnswer = @Sendable (_ now: Date, _ n: Int) -> Result<[Headline], NewsError>

/// The script behind `ScriptedHeadlineProvider`, and the record of when it was asked.
final class FetchScript: @unchecked Sendable {
    private let lock = NSLock()
    private var answer: FetchAnswer
    private var _calls: [Date] = []

    init(_ answer: @escaping FetchAnswer) { self.answer = answer }

    var calls: [Date] { lock.withLock { _calls } }
    func answer(with new: @escaping FetchAnswer) { lock.withLock { answer = new } }

    func next(now: Date) -> Result<[Headline], NewsError> {
        lock.withLock {
            _calls.append(now)
            return answer(now, _calls.count - 1)
        }
    }
}

/// A `HeadlineProvider` that answers from a script and records every call's time.
struct ScriptedHeadlineProvider: HeadlineProvider {
    let script: FetchScript
    var displayName: String { "Scripted" }
    var keyVariable: String? { nil }
    func fetch(now: Date) async throws -> [Headline] { try script.next(now: now).get() }
}

/// A real `HeadlinesTimelineProvider` over a scripted source, with its cache and status in `dir`.
func headlinesProvider(_ script: FetchScript, dir: TempDir, interval: TimeInterval,
                       rotate: TimeInterval) -> HeadlinesTimelineProvider {
    let refresher = Refresher(provider: ScriptedHeadlineProvider(script: script),
                              cache: HeadlineCache(path: dir.cacheFile),
                              statusStore: RefreshStatusStore(path: dir.statusFile))
    return HeadlinesTimelineProvider(refresher: refresher, interval: interval, rotate: rotate, warn: { _ in })
}

/// A `TimelineProvider` whose timelines carry a scripted policy; records its calls and fails the
/// test on a placeholder or snapshot it was not meant to be asked for.
final class FakeTimelineProvider: TimelineProvider, @unchecked Sendable {
    private let lock = NSLock()
    private var _calls: [Date] = []
    let policy: @Sendable (Date) -> ReloadPolicy
    /// What `snapshot` says was fetched: nil means no cache.
    let snapshotFetchedAt: Date?
    /// Runs inside `timeline`, before it answers (to look at the ledger mid-request).
    let during: (@Sendable (Date) -> Void)?

    init(snapshotFetchedAt: Date? = nil, during: (@Sendable (Date) -> Void)? = nil,
         policy: @escaping @Sendable (Date) -> ReloadPolicy) {
        self.snapshotFetchedAt = snapshotFetchedAt
        self.during = during
        self.policy = policy
    }

    var calls: [Date] { lock.withLock { _calls } }

    func placeholder() -> TimelineEntry {
        TimelineEntry(date: .distantPast, content: WidgetContent(headlines: [], freshness: .placeholder, fetchedAt: nil))
    }

    func snapshot(now: Date) -> TimelineEntry {
        TimelineEntry(date: now, content: WidgetContent(headlines: [], freshness: .empty, fetchedAt: snapshotFetchedAt))
    }

    func timeline(now: Date, consecutiveFailures: Int) async -> TimelineResult {
        lock.withLock { _calls.append(now) }
        during?(now)
        let entry = TimelineEntry(date: now, content: WidgetContent(headlines: [], freshness: .fresh, fetchedAt: now))
        return TimelineResult(timeline: Timeline(entries: [entry], policy: policy(now)), failure: nil, fetched: [])
    }
}

/// The most attempts in any sliding 24 hours `(t - 24 h, t]`, checked at every attempt time `t`.
func mostInAnyWindow(_ attempts: [Date]) -> Int {
    attempts.map { t in attempts.filter { $0 > t.addingTimeInterval(-day) && $0 <= t }.count }.max() ?? 0
}

/// Seconds from `origin` to each date, for readable equality failures.
func offsets(_ dates: [Date], from origin: Date) -> [TimeInterval] {
    dates.map { $0.timeIntervalSince(origin) }
}
