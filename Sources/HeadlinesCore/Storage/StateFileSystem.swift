import FoundationEssentials

/// The file-system calls every state file is made of (cache, status, seen set, muted sources,
/// rotation offset, ...). The real one is `PosixFileSystem`; tests hand in a recording fake and
/// check the order of the calls. The durable write is written once, below, on top of these calls,
/// so no store can write a file in place by accident.
public protocol StateFileSystem: Sendable {
    /// Creates `path` and its missing parents, mode 0700.
    func createDirectories(_ path: String) throws
    /// A new temporary name beside `path`, in the same folder (so the rename stays on one device).
    func temporaryName(for path: String) -> String
    /// Creates `path`, which must not exist yet, for writing; returns its descriptor.
    func createExclusive(_ path: String, mode: UInt32) throws -> Int32
    /// Writes all of `data`.
    func write(_ data: Data, to descriptor: Int32, path: String) throws
    /// fsync: the bytes are on disk when it returns.
    func sync(_ descriptor: Int32, path: String) throws
    func close(_ descriptor: Int32)
    /// rename(2): atomic replacement of `destination`.
    func rename(_ source: String, to destination: String) throws
    /// fsync of the folder, so the rename itself survives a power cut. Best effort: some file
    /// systems refuse it, and the data is already safe in the file.
    func syncDirectory(_ path: String)
    /// Opens the regular file `path` for appending, with its length; nil when there is none.
    func openAppending(_ path: String) throws -> (descriptor: Int32, size: Int)?
    func remove(_ path: String)
    /// The file's bytes, nil when it does not exist. Reads at most `limit` bytes: a longer file
    /// throws `StateFileTooLarge` (we never wrote it). Only a regular file is read: anything else
    /// (a FIFO, a device) throws `NotARegularFile` without blocking.
    func read(_ path: String, limit: Int) throws -> Data?
}

/// How long a file each reader accepts: far above what we write, far below what would hurt. A
/// file's writer keeps to the same limit (`FileSizeLimit`); a file type with its own limit states
/// it beside itself (`SeenSet.fileLimit`, `ReloadReport.maxBytes`).
public enum ReadLimits {
    /// Any state file (a full cache or status is tens of KB).
    public static let stateFile = 16 << 20
    /// The config file.
    public static let configFile = 1 << 20
    /// `api-key-file`: a key is a line, not a document.
    public static let apiKeyFile = 4096
}

/// A state file longer than any we write: read as corrupt, never loaded into memory whole. Also
/// what a writer throws instead of writing a file longer than its reader accepts.
public struct StateFileTooLarge: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var limit: Int
    public init(path: String, limit: Int) { self.path = path; self.limit = limit }
    public var description: String { "\(path) is larger than \(limit) bytes" }
}

extension StateFileSystem {
    /// Replaces `path` with `data` so that a reader sees the old file or the new one, whole, even
    /// after a crash or power loss: temporary file in the same folder, fsync, rename, fsync folder.
    public func writeAtomically(_ data: Data, to path: String, mode: UInt32 = 0o600) throws {
        let dir = PathText.directory(of: path)
        try createDirectories(dir)
        let tmp = temporaryName(for: path)
        let fd = try createExclusive(tmp, mode: mode)
        do {
            defer { close(fd) }
            try write(data, to: fd, path: tmp)
            try sync(fd, path: tmp)
        } catch {
            remove(tmp)
            throw error
        }
        do { try rename(tmp, to: path) } catch { remove(tmp); throw error }
        syncDirectory(dir)
    }

    /// Appends `data` to `path` and fsyncs it, when the file is there with `size` bytes, as its
    /// writer left it; false, having written nothing, otherwise. The one write in place: a reader
    /// meanwhile may see the new bytes cut short, so only a file whose reader drops a last line
    /// without its newline (`LedgerFile`) is appended to.
    public func appendDurably(_ data: Data, to path: String, ifSize size: Int) throws -> Bool {
        guard let (fd, current) = try openAppending(path) else { return false }
        defer { close(fd) }
        guard current == size else { return false }
        try write(data, to: fd, path: path)
        try sync(fd, path: path)
        return true
    }
}
