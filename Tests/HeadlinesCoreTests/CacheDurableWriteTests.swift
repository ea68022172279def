import Foundation
import HeadlinesCore
import TestSupport
import XCTest

/// Every state file goes through the one durable write (temporary file beside it, fsync, close,
/// rename, folder fsync) and loads through the one forgiving reader, seen through the seam.
final class CacheDurableWriteTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private let paths = XDGPaths(environment: ["HOME": "/home/test", "XDG_STATE_HOME": "/state",
                                               "XDG_CACHE_HOME": "/cache", "XDG_RUNTIME_DIR": "/run"])
    private var fileSystem = RecordingFileSystem()
    private var warnings: [String] = []

    override func setUp() {
        fileSystem = RecordingFileSystem()
        warnings = []
    }

    private var headline: Headline {
        Headline(id: "1", title: "A title", url: URL(string: "https://example.com/1")!, source: "example.com", publishedAt: now)
    }

    func testEveryStateFileIsReplacedThroughTemporaryFileFsyncRenameAndFolderFsync() throws {
        // When each store writes its file twice (the second time over an existing file)
        for _ in 0..<2 {
            try HeadlineCache(path: paths.cacheFile, fileSystem: fileSystem)
                .store(CachedHeadlines(provider: "Feeds", fetchedAt: now, headlines: [headline]))
            var status = RefreshStatus(); status.recordSuccess(provider: "Feeds", at: now)
            try RefreshStatusStore(path: paths.statusFile, fileSystem: fileSystem).store(status)
            var seen = SeenSet(); seen.insert("1", at: now)
            try JSONStateFile(seenSetAt: paths.seenFile, fileSystem: fileSystem).store(seen)
            try JSONStateFile(mutedSourcesAt: paths.mutedFile, fileSystem: fileSystem).store(MutedSources(["x.example"]))
            try JSONStateFile(rotationOffsetAt: paths.rotationOffsetFile, fileSystem: fileSystem).store(RotationOffset(offset: 2))
            let notifications = HeadlineNotifications(notifier: RecordingNotifier(), paths: paths, maxPerRefresh: 3,
                                                      fileSystem: fileSystem, warn: { _ in })
            try notifications.mute("y.example-\(UUID())", now: now)
        }
        // Then every write followed the rule, and each file was written that way
        let writes = RecordingFileSystem.durableWrites(in: fileSystem.log.all)
        XCTAssertEqual(writes.violations, [], "\(fileSystem.log.all)")
        let files = [paths.cacheFile, paths.statusFile, paths.seenFile, paths.mutedFile, paths.rotationOffsetFile]
        XCTAssertEqual(Set(writes.paths), Set(files))
        XCTAssertEqual(writes.paths.count, 12)
        // And no temporary file is left behind
        XCTAssertEqual(fileSystem.paths, files.sorted())
    }

    func testTheExactSequenceOfOneWrite() throws {
        try HeadlineCache(path: "/c/headlines.json", fileSystem: fileSystem)
            .store(CachedHeadlines(provider: "Feeds", fetchedAt: now, headlines: []))
        let calls = fileSystem.log.all
        guard case let .write(tmp, bytes) = calls[safe: 2] else { return XCTFail("\(calls)") }
        XCTAssertEqual(calls, [.createDirectories("/c"), .create(tmp), .write(tmp, bytes: bytes), .sync(tmp), .close(tmp),
                               .rename(tmp, to: "/c/headlines.json"), .syncDirectory("/c")])
        XCTAssertTrue(tmp.hasPrefix("/c/.headlines.json.tmp"))
    }

    func testARenameThatFailsLeavesTheOldFileAndNoTemporary() throws {
        // Given a cache, and a second store whose rename cannot succeed (the temporary vanished)
        let cache = HeadlineCache(path: "/c/headlines.json", fileSystem: fileSystem)
        let first = CachedHeadlines(provider: "Feeds", fetchedAt: now, headlines: [headline])
        try cache.store(first)
        let failing = FailingRename(inner: fileSystem)
        XCTAssertThrowsError(try HeadlineCache(path: "/c/headlines.json", fileSystem: failing)
            .store(CachedHeadlines(provider: "Other", fetchedAt: now, headlines: [])))
        // Then the old cache is whole and the temporary is gone
        XCTAssertEqual(cache.load(now: now, warn: { warnings.append($0) }), first)
        XCTAssertEqual(fileSystem.paths, ["/c/headlines.json"])
        XCTAssertEqual(warnings, [])
    }

    func testACorruptStateFileIsMovedAsideOnceWithOneWarning() throws {
        // Given garbage where the seen set should be
        fileSystem.place(Data("{not json".utf8), at: paths.seenFile)
        let file = JSONStateFile(seenSetAt: paths.seenFile, fileSystem: fileSystem)
        // When it is loaded twice
        XCTAssertNil(file.load(now: now, warn: { warnings.append($0) }))
        XCTAssertNil(file.load(now: now, warn: { warnings.append($0) }))
        // Then it was renamed aside through the seam, with one warning in all
        let aside = paths.seenFile + ".corrupt-1800000000"
        XCTAssertTrue(fileSystem.log.all.contains(.rename(paths.seenFile, to: aside)))
        XCTAssertEqual(fileSystem.contents(aside), Data("{not json".utf8))
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(warnings[0].contains("seen-headlines"), warnings[0])
    }

    func testAFileBeyondTheReadLimitIsSetAsideNotLoaded() throws {
        fileSystem.place(Data(repeating: UInt8(ascii: " "), count: (16 << 20) + 1), at: paths.statusFile)
        let status = RefreshStatusStore(path: paths.statusFile, fileSystem: fileSystem).load(now: now, warn: { warnings.append($0) })
        XCTAssertEqual(status, RefreshStatus(), "an oversized file reads as the empty status")
        XCTAssertNil(fileSystem.contents(paths.statusFile))
        XCTAssertEqual(warnings.count, 1)
    }

    func testTheRealFileSystemReadsAtMostTheLimit() throws {
        let dir = try makeTempDir(self)
        let path = dir + "/big.json"
        try Data(repeating: 0x20, count: 1001).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try PosixFileSystem().read(path, limit: 1000)) { XCTAssertTrue($0 is StateFileTooLarge) }
        XCTAssertEqual(try PosixFileSystem().read(path, limit: 1001)?.count, 1001)
        XCTAssertNil(try PosixFileSystem().read(dir + "/missing.json", limit: 10))
    }

    func testExistingFilesOfEveryStoreStillLoad() throws {
        // Files as the stores before JSONStateFile wrote them
        let dir = try makeTempDir(self)
        let old = XDGPaths(environment: ["HOME": dir, "XDG_STATE_HOME": dir + "/state", "XDG_CACHE_HOME": dir + "/cache",
                                         "XDG_RUNTIME_DIR": dir + "/run"])
        let files: [(String, String)] = [
            (old.seenFile, #"{"seen":{"abc":"2026-11-30T00:00:00.000Z"}}"#),
            (old.mutedFile, #"{"sources":["noisy.example"]}"#),
            (old.rotationOffsetFile, #"{"offset":3}"#),
            (old.statusFile, #"{"provider":"Feeds","lastAttempt":"2026-11-30T00:00:00.000Z","lastSuccess":"2026-11-30T00:00:00.000Z"}"#),
        ]
        for (path, text) in files {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        let warn: (String) -> Void = { self.warnings.append($0) }
        XCTAssertEqual(JSONStateFile(seenSetAt: old.seenFile).load(now: now, warn: warn)?.contains("abc"), true)
        XCTAssertEqual(JSONStateFile(mutedSourcesAt: old.mutedFile).load(now: now, warn: warn), MutedSources(["noisy.example"]))
        XCTAssertEqual(JSONStateFile(rotationOffsetAt: old.rotationOffsetFile).load(now: now, warn: warn)?.offset, 3)
        XCTAssertEqual(RefreshStatusStore(path: old.statusFile).load(now: now, warn: warn).provider, "Feeds")
        XCTAssertEqual(warnings, [])
    }
}

/// Passes every call through, except that rename fails as if the temporary file had vanished.
private struct FailingRename: StateFileSystem {
    let inner: RecordingFileSystem
    func createDirectories(_ path: String) throws { try inner.createDirectories(path) }
    func temporaryName(for path: String) -> String { inner.temporaryName(for: path) }
    func createExclusive(_ path: String, mode: UInt32) throws -> Int32 { try inner.createExclusive(path, mode: mode) }
    func write(_ data: Data, to descriptor: Int32, path: String) throws { try inner.write(data, to: descriptor, path: path) }
    func sync(_ descriptor: Int32, path: String) throws { try inner.sync(descriptor, path: path) }
    func close(_ descriptor: Int32) { inner.close(descriptor) }
    func rename(_ source: String, to destination: String) throws {
        throw SystemError(call: "rename", path: destination, errno: ENOENT)
    }
    func syncDirectory(_ path: String) { inner.syncDirectory(path) }
    func openAppending(_ path: String) throws -> (descriptor: Int32, size: Int)? { try inner.openAppending(path) }
    func remove(_ path: String) { inner.remove(path) }
    func read(_ path: String, limit: Int) throws -> Data? { try inner.read(path, limit: limit) }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
