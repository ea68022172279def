import FoundationEssentials

/// What the user read here on a sync service's headlines: the marks still to send (queued
/// durably, so a mark made offline is sent on the next reload, and removed only once the service
/// took it) and the ids marked read, which the widget document shows as `read` until the next
/// reload drops them. `$XDG_STATE_HOME/headlines[/widgets/NAME]/read-marks.json`.
public struct ReadMarks: Codable, Equatable, Sendable, EmptyStateValue {
    /// `SyncAccount.label` of the account the marks belong to: marks never go to another account.
    public var account: String?
    /// Item ids to mark read on the service, oldest first.
    public var pending: [String] = []
    /// Item ids marked read here, sent or not, oldest first; at most `readLimit`.
    public var read: [String] = []

    public static let readLimit = 500
    public static let pendingLimit = 2000

    public init() {}

    /// Queues `id` for `account`. Marks queued for another account (the config changed) are
    /// dropped: they name items of a service this config no longer reads.
    public mutating func queue(_ id: String, account: String) {
        if self.account != account { self = ReadMarks(); self.account = account }
        if !pending.contains(id) { pending.append(id) }
        if pending.count > Self.pendingLimit { pending.removeFirst(pending.count - Self.pendingLimit) }
        if !read.contains(id) { read.append(id) }
        if read.count > Self.readLimit { read.removeFirst(read.count - Self.readLimit) }
    }

    /// The service took these marks.
    public mutating func sent(_ ids: some Sequence<String>) {
        let done = Set(ids)
        pending.removeAll { done.contains($0) }
    }
}

/// `read-marks.json` through the one JSON state-file store, changed only under its lock
/// (`read-marks.json.lock`): the host queues while a reload child may be sending.
public struct ReadMarksStore: Sendable {
    public let file: JSONStateFile<ReadMarks>
    public init(path: String, fileSystem: any StateFileSystem = PosixFileSystem()) {
        file = JSONStateFile(path: path, what: "read marks", fileSystem: fileSystem)
    }

    public func load(now: Date, warn: (String) -> Void) -> ReadMarks { file.load(now: now, warn: warn) }

    /// Loads, changes and stores the marks under the lock, so no mark is lost to a writer beside.
    @discardableResult
    public func update<T>(now: Date, warn: (String) -> Void, _ change: (inout ReadMarks) throws -> T) throws -> T {
        try FileLock.withExclusive(file.path + ".lock") {
            var marks: ReadMarks = file.load(now: now, warn: warn)
            let result = try change(&marks)
            try file.store(marks)
            return result
        }
    }
}

extension XDGPaths {
    /// Beside the status file: it belongs to the source (widget) whose fetch reads the service.
    public var readMarksFile: String { sharedStateDir + (sourceWidget.map { "/widgets/" + $0 } ?? "") + "/read-marks.json" }
}
