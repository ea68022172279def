import FoundationEssentials

/// The budget ledger, `$XDG_STATE_HOME/headlines/ledger.json`, and beside it its intent log,
/// `ledger.json.intents`: one line per reload attempt the host is about to make, appended in one
/// write(2) without fsync before the reload's child may send its request. Once the append has
/// returned, every process that loads the ledger counts the attempt, even when the host dies
/// before the ledger's own durable write, whose fsync (1 to 8 ms on this kind of machine) used to
/// stand between a trigger and the request (issue 14). Each store of the ledger, which holds every
/// attempt its writer loaded or made, ends the log. A power cut can lose the log's last line: one
/// attempt uncounted at most, never a corrupt ledger.
public struct LedgerStore: Sendable {
    public let file: JSONStateFile<RefreshLedger>
    public let intentsPath: String
    /// Far above what the log holds between two stores (a line or two).
    static let intentsLimit = 1 << 20

    public init(path: String, fileSystem: any StateFileSystem = PosixFileSystem()) {
        file = JSONStateFile(path: path, what: "refresh ledger", fileSystem: fileSystem)
        intentsPath = path + ".intents"
    }

    /// The stored ledger, with every attempt of the intent log counted once.
    public func load(now: Date, warn: (String) -> Void) -> RefreshLedger {
        var ledger: RefreshLedger = file.load(now: now, warn: warn)
        let logged = intents()
        if !logged.isEmpty { ledger.records = RefreshLedger.union(ledger.records, logged) }
        return ledger
    }

    /// Replaces the ledger durably, then ends the intent log (the ledger now holds its attempts).
    public func store(_ ledger: RefreshLedger) throws {
        try file.store(ledger)
        file.fileSystem.remove(intentsPath)
    }

    /// Counts `attempt` for every later load, at the cost of one append.
    public func recordIntent(_ attempt: RefreshLedger.Attempt) throws {
        var line = try StateJSONEncoder.headlines().encode(attempt)
        line.append(0x0A)
        do { try file.fileSystem.append(line, to: intentsPath) } catch {
            // The first reload of a new user: no state folder yet.
            try file.fileSystem.createDirectories(PathText.directory(of: intentsPath))
            try file.fileSystem.append(line, to: intentsPath)
        }
    }

    /// The log's attempts. A line cut short or unreadable is skipped; a log that is not a regular
    /// file, or longer than any we write, is ignored.
    func intents() -> [RefreshLedger.Attempt] {
        guard let data = try? file.fileSystem.read(intentsPath, limit: Self.intentsLimit) else { return [] }
        let decoder = StateJSONDecoder.headlines()
        return data.split(separator: 0x0A).compactMap { try? decoder.decode(RefreshLedger.Attempt.self, from: Data($0)) }
    }
}
