import FoundationEssentials
import Synchronization

/// The budget ledger, `$XDG_STATE_HOME/headlines/ledger.json` (`LedgerFile`). The host saves it durably before it
/// starts the reload the ledger counts, so every process that loads it sees every attempt made.
///
/// A save appends what the ledger's `unsaved` names as one line, fsynced, so it costs what
/// changed, not the 24 hours of attempts the budget may hold. The file is rewritten whole,
/// atomically like every state file, at this store's first save, after a failed one, when
/// attempts already in it were re-dated, and when the lines appended since the last rewrite
/// outgrow that rewrite: so the rewrites cost each attempt a few lines' worth, and the file
/// stays within about twice what the ledger holds (and within `file.limit`, which `load` reads).
public final class LedgerStore: Sendable {
    public let file: JSONStateFile<RefreshLedger>
    /// The file's length as this store left it, and its length after its last rewrite; nil
    /// until this store has written it and after a save failed, when it may end in half a line.
    private let written = Mutex<(size: Int, rewritten: Int)?>(nil)
    /// What the lines since a rewrite may take however small that rewrite was, so that a short
    /// ledger is not rewritten at every save.
    static let appendRoom = 64 << 10

    public init(path: String, fileSystem: any StateFileSystem = PosixFileSystem()) {
        file = JSONStateFile(path: path, what: "refresh ledger", fileSystem: fileSystem)
    }

    public func load(now: Date, warn: (String) -> Void) -> RefreshLedger {
        file.load(now: now, warn: warn, decode: LedgerFile.decode) ?? RefreshLedger()
    }

    /// Saves `ledger` durably: on disk when this returns.
    public func store(_ ledger: RefreshLedger) throws {
        try written.withLock { written in
            do {
                if case let .newest(count) = ledger.unsaved, let last = written,
                   let size = try append(ledger.records.suffix(count), of: ledger, after: last) {
                    written = (size, last.rewritten)
                    return
                }
                let data = try LedgerFile.lines(ledger.records[...], of: ledger)
                guard data.count <= file.limit else { throw StateFileTooLarge(path: file.path, limit: file.limit) }
                try file.fileSystem.writeAtomically(data, to: file.path)
                written = (data.count, data.count)
            } catch {
                written = nil
                throw error
            }
        }
    }

    /// Appends `attempts` as a line and returns the file's new length; nil, having written
    /// nothing, when the file should be rewritten instead: it would outgrow its last rewrite, or
    /// it is not as this store left it (removed, replaced).
    private func append(_ attempts: ArraySlice<RefreshLedger.Attempt>, of ledger: RefreshLedger,
                        after last: (size: Int, rewritten: Int)) throws -> Int? {
        let line = try LedgerFile.lines(attempts, of: ledger)
        let size = last.size + line.count
        guard size - last.rewritten <= max(Self.appendRoom, last.rewritten), size <= file.limit,
              try file.fileSystem.appendDurably(line, to: file.path, ifSize: last.size) else { return nil }
        return size
    }
}
