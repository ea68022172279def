import FoundationEssentials

/// The budget ledger, `$XDG_STATE_HOME/headlines/ledger.json`. The host saves it durably before it
/// starts the reload the ledger counts, so every process that loads it sees every attempt made.
public struct LedgerStore: Sendable {
    public let file: JSONStateFile<RefreshLedger>

    public init(path: String, fileSystem: any StateFileSystem = PosixFileSystem()) {
        file = JSONStateFile(path: path, what: "refresh ledger", fileSystem: fileSystem)
    }

    public func load(now: Date, warn: (String) -> Void) -> RefreshLedger { file.load(now: now, warn: warn) }

    /// Replaces the ledger durably.
    public func store(_ ledger: RefreshLedger) throws { try file.store(ledger) }
}
