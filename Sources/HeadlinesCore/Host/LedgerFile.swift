import FoundationEssentials

/// How `ledger.json` is written: JSON lines, so that a save appends what changed (a reload's
/// attempt is one short line, fsynced before its request leaves) instead of rewriting every
/// attempt of the last 24 hours, which at a 1 s interval is a day of them.
///
/// Each line holds attempts of one boot and the ledger's failures, outcome, wait, source and
/// next due date as they were when it was written. The ledger is every line's attempts and the
/// rest of the last line. A file without a newline is the one JSON document earlier versions wrote.
public enum LedgerFile {
    struct Line: Codable {
        /// The attempts' wall-clock dates.
        var at: [Date]
        /// Their CLOCK_BOOTTIME readings in `boot` (null for an attempt without one); absent when
        /// no attempt of the line has one.
        var monotonic: [TimeInterval?]?
        var boot: String?
        var consecutiveFailures: Int
        var lastOutcome: RefreshLedger.Outcome?
        var retryNotBefore: Date?
        var source: String?
        /// Absent in the lines of versions before per-feed schedules.
        var nextDue: Date?
    }

    /// `attempts` with the rest of `ledger`, as lines that each end in a newline: one per run of
    /// attempts of one boot, or one without attempts when there are none.
    public static func lines(_ attempts: ArraySlice<RefreshLedger.Attempt>, of ledger: RefreshLedger) throws -> Data {
        var runs: [ArraySlice<RefreshLedger.Attempt>] = []
        var start = attempts.startIndex
        for i in attempts.indices where i > start && attempts[i].boot != attempts[i - 1].boot {
            runs.append(attempts[start..<i])
            start = i
        }
        runs.append(attempts[start...])
        let encoder = StateJSONEncoder.headlines()
        var data = Data()
        for run in runs {
            let readings = run.map(\.monotonic)
            let line = Line(at: run.map(\.at), monotonic: readings.contains { $0 != nil } ? readings : nil,
                            boot: run.first?.boot, consecutiveFailures: ledger.consecutiveFailures,
                            lastOutcome: ledger.lastOutcome, retryNotBefore: ledger.retryNotBefore, source: ledger.source,
                            nextDue: ledger.nextDue)
            data.append(try encoder.encode(line))
            data.append(UInt8(ascii: "\n"))
        }
        return data
    }

    /// The ledger a file holds. Throws when it is neither lines nor an earlier version's document.
    public static func decode(_ data: Data) throws -> RefreshLedger {
        let decoder = StateJSONDecoder.headlines()
        guard let end = data.lastIndex(of: UInt8(ascii: "\n")) else {
            return try decoder.decode(RefreshLedger.self, from: data)
        }
        // What follows the last newline is an append cut short (a crash or a full disk during its
        // write): its request never left, since a request waits for its line to be synced.
        // JSON never holds a raw newline, so the lines read as one array in one pass.
        let list = Data("[".utf8) + data[..<end].map { $0 == UInt8(ascii: "\n") ? UInt8(ascii: ",") : $0 } + Data("]".utf8)
        let lines: [Line]
        do {
            lines = try decoder.decode([Line].self, from: list)
        } catch {
            // An earlier version's document that an editor ended with a newline.
            if let document = try? decoder.decode(RefreshLedger.self, from: data) { return document }
            throw error
        }
        guard let last = lines.last else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no line before the last newline"))
        }
        var ledger = RefreshLedger()
        ledger.records = lines.flatMap { line in
            line.at.indices.map { i in
                let reading = line.monotonic.flatMap { i < $0.count ? $0[i] : nil }
                return RefreshLedger.Attempt(at: line.at[i], monotonic: reading, boot: line.boot)
            }
        }
        ledger.consecutiveFailures = last.consecutiveFailures
        ledger.lastOutcome = last.lastOutcome
        ledger.retryNotBefore = last.retryNotBefore
        ledger.source = last.source
        ledger.nextDue = last.nextDue
        return ledger
    }
}
