import FoundationEssentials

/// One JSON state file (cache, status, seen set, muted sources, rotation offset, ...): the only
/// way the core reads and writes them. Loading is bounded and forgiving: a missing file is nil,
/// an unreadable one is one warning and nil, a corrupt (or absurdly long) one is moved aside to
/// `NAME.corrupt-TIMESTAMP` with one warning. Storing goes through the file system's durable
/// write (temporary file, fsync, rename, fsync folder), so a reader never sees half a file.
public struct JSONStateFile<Value: Codable & Sendable>: Sendable {
    public let path: String
    /// What the file holds, for warnings: "cache", "seen-headlines", ...
    public let what: String
    public let fileSystem: any StateFileSystem
    /// The longest file `load` reads (a longer one is set aside by its size, unread), and so the
    /// longest `store` writes.
    public let limit: Int

    public init(path: String, what: String, fileSystem: any StateFileSystem = PosixFileSystem(),
                limit: Int = ReadLimits.stateFile) {
        self.path = path
        self.what = what
        self.fileSystem = fileSystem
        self.limit = limit
    }

    /// The stored value, or nil when there is none. `warn` hears about a bad file once: the
    /// corrupt file is moved away, so the next load finds nothing.
    public func load(now: Date, warn: (String) -> Void) -> Value? {
        load(now: now, warn: warn, decode: { try StateJSONDecoder.headlines().decode(Value.self, from: $0) })
    }

    /// The same, for a file that is not one JSON document of `Value` (the ledger's lines).
    public func load(now: Date, warn: (String) -> Void, decode: (Data) throws -> Value) -> Value? {
        let data: Data?
        do {
            data = try fileSystem.read(path, limit: limit)
        } catch is StateFileTooLarge {
            setAside(now: now, warn: warn)
            return nil
        } catch let error as NotARegularFile {
            warn("The \(what) file \(error.path) is \(error.kind), not a regular file; carrying on without it: remove it.")
            return nil
        } catch let refusal as RuntimeFolderRefusal {
            warn("Not reading the \(what) file: \(refusal.description)")
            return nil
        } catch {
            warn("Cannot read the \(what) file (\(error)); carrying on without it: check its permissions.")
            return nil
        }
        guard let data else { return nil }
        do {
            return try decode(data)
        } catch {
            setAside(now: now, warn: warn)
            return nil
        }
    }

    /// Replaces the file with `value`, durably, in at most `limit` bytes: a longer value is
    /// shrunk when it can be (`ShrinkableFileValue`: its oldest headlines dropped), else refused
    /// with `StateFileTooLarge` and the file left as it was. Never a file `load` would set aside.
    public func store(_ value: Value) throws {
        try fileSystem.writeAtomically(try FileSizeLimit.encode(value, limit: limit, path: path), to: path)
    }

    private func setAside(now: Date, warn: (String) -> Void) {
        let aside = path + ".corrupt-" + String(Int(now.timeIntervalSince1970))
        do {
            try fileSystem.rename(path, to: aside)
            warn("The \(what) file \(path) was corrupt; moved it to \(aside) and started afresh.")
        } catch {
            warn("The \(what) file \(path) is corrupt and could not be moved aside; ignoring it: delete it.")
        }
    }
}

/// A state value with an empty state: its file loads as `Value()` when missing or corrupt.
public protocol EmptyStateValue: Codable, Sendable {
    init()
}

extension JSONStateFile where Value: EmptyStateValue {
    /// The stored value, or the empty one when there is none (same warnings as the optional load).
    public func load(now: Date, warn: (String) -> Void) -> Value {
        let stored: Value? = load(now: now, warn: warn)
        return stored ?? Value()
    }
}

/// The name `StateFile<Value>` had before every store became a `JSONStateFile`.
public typealias StateFile<Value: Codable & Sendable> = JSONStateFile<Value>
