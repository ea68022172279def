import Foundation
import HeadlinesCore
import HeadlinesSources
import Synchronization

/// One thing a test saw happen, in order: a file-system call or a notification. A file system and
/// a notifier that share one `CallLog` let a test assert what happened before what.
public enum RecordedCall: Equatable, Sendable {
    case createDirectories(String)
    case create(String)
    case write(String, bytes: Int)
    case sync(String)
    case close(String)
    case rename(String, to: String)
    case syncDirectory(String)
    case openAppending(String)
    case remove(String)
    case read(String)
    case posted(ids: [String], more: Int)
}

/// The calls in the order they happened, from any thread.
public final class CallLog: Sendable {
    private let calls = Mutex<[RecordedCall]>([])
    public init() {}
    public func append(_ call: RecordedCall) { calls.withLock { $0.append(call) } }
    public var all: [RecordedCall] { calls.withLock { $0 } }
}

/// An in-memory `StateFileSystem` that records every call in a `CallLog`. Files are bytes in a
/// dictionary; temporary names are `.NAME.tmp-N` beside the file, so a test can tell a temporary
/// file from the real one.
public final class RecordingFileSystem: StateFileSystem, Sendable {
    public let log: CallLog
    private struct Disk {
        var files: [String: Data] = [:]
        var open: [Int32: String] = [:]
        var nextDescriptor: Int32 = 100
        var nextTemporary = 0
        var writeError: Int32?
    }
    private let disk = Mutex(Disk())

    public init(log: CallLog = CallLog()) { self.log = log }

    /// What a file holds now (nil: no such file).
    public func contents(_ path: String) -> Data? { disk.withLock { $0.files[path] } }
    /// Puts a file in place without recording a call (the "given" of a test).
    public func place(_ data: Data, at path: String) { disk.withLock { $0.files[path] = data } }
    public var paths: [String] { disk.withLock { $0.files.keys.sorted() } }
    /// From now on every write(2) fails with `errno` (ENOSPC: a full disk); nil makes them work again.
    public func failWrites(_ errno: Int32?) { disk.withLock { $0.writeError = errno } }

    public func createDirectories(_ path: String) throws { log.append(.createDirectories(path)) }

    public func temporaryName(for path: String) -> String {
        let n = disk.withLock { d -> Int in d.nextTemporary += 1; return d.nextTemporary }
        return Self.directory(of: path) + "/." + (path.split(separator: "/").last.map(String.init) ?? path) + ".tmp-\(n)"
    }

    public func createExclusive(_ path: String, mode: UInt32) throws -> Int32 {
        log.append(.create(path))
        return try disk.withLock { d in
            guard d.files[path] == nil else { throw SystemError(call: "open", path: path, errno: EEXIST) }
            d.files[path] = Data()
            d.nextDescriptor += 1
            d.open[d.nextDescriptor] = path
            return d.nextDescriptor
        }
    }

    public func write(_ data: Data, to descriptor: Int32, path: String) throws {
        log.append(.write(path, bytes: data.count))
        try disk.withLock { d in
            if let failure = d.writeError { throw SystemError(call: "write", path: path, errno: failure) }
            guard let target = d.open[descriptor] else { return }
            d.files[target, default: Data()].append(data)
        }
    }

    public func sync(_ descriptor: Int32, path: String) throws { log.append(.sync(path)) }

    public func close(_ descriptor: Int32) {
        let path = disk.withLock { $0.open.removeValue(forKey: descriptor) }
        log.append(.close(path ?? "fd \(descriptor)"))
    }

    public func rename(_ source: String, to destination: String) throws {
        log.append(.rename(source, to: destination))
        try disk.withLock { d in
            guard let data = d.files.removeValue(forKey: source) else {
                throw SystemError(call: "rename", path: source, errno: ENOENT)
            }
            d.files[destination] = data
        }
    }

    public func syncDirectory(_ path: String) { log.append(.syncDirectory(path)) }

    public func openAppending(_ path: String) throws -> (descriptor: Int32, size: Int)? {
        log.append(.openAppending(path))
        return disk.withLock { d -> (descriptor: Int32, size: Int)? in
            guard let data = d.files[path] else { return nil }
            d.nextDescriptor += 1
            d.open[d.nextDescriptor] = path
            return (d.nextDescriptor, data.count)
        }
    }

    public func remove(_ path: String) {
        log.append(.remove(path))
        _ = disk.withLock { $0.files.removeValue(forKey: path) }
    }

    public func read(_ path: String, limit: Int) throws -> Data? {
        log.append(.read(path))
        guard let data = contents(path) else { return nil }
        if data.count > limit { throw StateFileTooLarge(path: path, limit: limit) }
        return data
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

extension RecordingFileSystem {
    /// Every file the log shows replaced durably: created as a temporary file in its folder,
    /// written, fsynced and closed, renamed over the real name, then the folder fsynced, in that
    /// order. Returns the real paths so written, and a sentence for each write that broke the
    /// rule (a file written in place, a rename before fsync, a folder never synced, ...). An
    /// append (`appendDurably`) is the one write in place, and must be fsynced before its close.
    public static func durableWrites(in calls: [RecordedCall]) -> (paths: [String], violations: [String]) {
        var paths: [String] = []
        var violations: [String] = []
        // Where each written file's story starts.
        var created: [String: Int] = [:]
        var synced: [String: Int] = [:]
        var closed: [String: Int] = [:]
        // Files open for appending, and whether they hold a write no fsync followed.
        var appending: [String: Bool] = [:]
        for (i, call) in calls.enumerated() {
            switch call {
            case let .openAppending(p): appending[p] = false
            case let .write(p, _) where appending[p] != nil: appending[p] = true
            case let .sync(p) where appending[p] != nil: appending[p] = false
            case let .close(p) where appending[p] != nil:
                if appending.removeValue(forKey: p) == true { violations.append("\(p) appended to and closed without fsync") }
            case let .create(p): created[p] = i
            case let .sync(p): synced[p] = i
            case let .close(p): closed[p] = i
            case let .remove(p): created[p] = nil   // a failed write cleaning up after itself
            case let .write(p, _) where created[p] == nil:
                violations.append("\(p) written without being created first")
            case let .rename(src, dst):
                guard let c = created.removeValue(forKey: src) else { continue }   // a set-aside, not a write
                let name = dst.split(separator: "/").last.map(String.init) ?? dst
                if !(src.hasPrefix(directory(of: dst) + "/.\(name).tmp")) {
                    violations.append("\(dst) written through \(src), which is not a temporary file beside it")
                }
                guard let s = synced.removeValue(forKey: src), s > c else {
                    violations.append("\(dst) renamed into place before its temporary file was fsynced"); continue
                }
                guard let cl = closed.removeValue(forKey: src), cl > s, cl < i else {
                    violations.append("\(dst) renamed into place while its temporary file was open"); continue
                }
                let rest = calls[(i + 1)...]
                if !rest.contains(.syncDirectory(directory(of: dst))) {
                    violations.append("\(dst) renamed into place but its folder was never fsynced")
                }
                paths.append(dst)
            default: break
            }
        }
        for (p, _) in created {
            violations.append("\(p) was created and written but never renamed into place (written in place?)")
        }
        return (paths, violations)
    }
}
